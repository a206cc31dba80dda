// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// A gpu.dealloc enqueued on a stream behind a kernel that reads the buffer
// frees it only once the kernel has run: work on one stream runs in the
// order it was issued (CUDA Programming Guide, "Streams"; cudaFreeAsync
// frees "after all preceding work in the stream"), so the kernel's reads are
// not a use after free, also under --check-bounds, although the program
// has called the free before the kernel reaches them. Each thread spins
// first, so that the free is issued long before the loads run.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @late_copy(%dst: memref<32xi32>, %src: memref<32xi32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %spins = arith.constant 2000000 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %count = scf.for %i = %c0 to %spins step %c1 iter_args(%n = %zero) -> i32 {
        %m = arith.addi %n, %one : i32
        scf.yield %m : i32
      }
      %v = memref.load %src[%tid] : memref<32xi32>
      %w = arith.addi %v, %count : i32
      memref.store %w, %dst[%tid] : memref<32xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %seven = arith.constant 7 : i32
    %t0 = gpu.wait async
    %dst, %t1 = gpu.alloc async [%t0] () : memref<32xi32>
    %src, %t2 = gpu.alloc async [%t1] () : memref<32xi32>
    %t3 = gpu.memset async [%t2] %src, %seven : memref<32xi32>, i32
    %t4 = gpu.launch_func async [%t3] @kernels::@late_copy
        blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%dst : memref<32xi32>, %src : memref<32xi32>)
    %t5 = gpu.dealloc async [%t4] %src : memref<32xi32>
    %h = memref.alloc () : memref<32xi32>
    %t6 = gpu.memcpy async [%t5] %h, %dst : memref<32xi32>, memref<32xi32>
    %t7 = gpu.dealloc async [%t6] %dst : memref<32xi32>
    gpu.wait [%t7]
    // 7 + 2000000 in every element.
    // CHECK: [2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007,  2000007]
    %u = memref.cast %h : memref<32xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<32xi32>
    return
  }
}
