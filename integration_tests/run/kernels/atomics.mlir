// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// Atomics from many blocks running in parallel: a histogram with
// memref.atomic_rmw, and a maximum with memref.generic_atomic_rmw.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%bins: memref<8xi32>, %max: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %i = gpu.global_id x
      %bin = arith.remui %i, %c8 : index
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<8xi32>) -> i32
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %r = memref.generic_atomic_rmw %max[%c0] : memref<1xf32> {
      ^bb0(%current: f32):
        %bigger = arith.maximumf %current, %f : f32
        memref.atomic_yield %bigger : f32
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %blocks = arith.constant 512 : index
    %threads = arith.constant 64 : index
    %bins = gpu.alloc () : memref<8xi32>
    %max = gpu.alloc () : memref<1xf32>
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    gpu.memset %bins, %zero : memref<8xi32>, i32
    gpu.memset %max, %fzero : memref<1xf32>, f32
    gpu.launch_func @kernels::@histogram blocks in (%blocks, %c1, %c1) threads in (%threads, %c1, %c1)
        args(%bins : memref<8xi32>, %max : memref<1xf32>)
    %hb = memref.alloc() : memref<8xi32>
    gpu.memcpy %hb, %bins : memref<8xi32>, memref<8xi32>
    // 512 * 64 = 32768 increments, 4096 per bin.
    // CHECK: [4096,  4096,  4096,  4096,  4096,  4096,  4096,  4096]
    %ub = memref.cast %hb : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%ub) : (memref<*xi32>) -> ()
    %hm = memref.alloc() : memref<1xf32>
    gpu.memcpy %hm, %max : memref<1xf32>, memref<1xf32>
    // CHECK: [32767]
    %um = memref.cast %hm : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%um) : (memref<*xf32>) -> ()
    gpu.dealloc %bins : memref<8xi32>
    gpu.dealloc %max : memref<1xf32>
    return
  }
}
