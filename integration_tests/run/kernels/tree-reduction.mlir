// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s

// A tree reduction in workgroup memory, with the barrier inside the loop:
// each block of 256 threads sums its 256 elements.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sums(%in: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%partial: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %size = gpu.block_dim x
      %half0 = arith.divui %size, %c2 : index
      scf.while (%half = %half0) : (index) -> index {
        %more = arith.cmpi ugt, %half, %c0 : index
        scf.condition(%more) %half : index
      } do {
      ^bb0(%half: index):
        %active = arith.cmpi ult, %tid, %half : index
        scf.if %active {
          %j = arith.addi %tid, %half : index
          %a = memref.load %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
          %b = memref.load %partial[%j] : memref<256xi32, #gpu.address_space<workgroup>>
          %s = arith.addi %a, %b : i32
          memref.store %s, %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %next = arith.divui %half, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %bid = gpu.block_id x
        %sum = memref.load %partial[%c0] : memref<256xi32, #gpu.address_space<workgroup>>
        memref.store %sum, %out[%bid] : memref<?xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1024 : index
    %h = memref.alloc(%n) : memref<?xi32>
    // in[i] = i, so block b sums 256 * (256 b) + 255 * 256 / 2.
    scf.for %i = %c0 to %n step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %h[%i] : memref<?xi32>
    }
    %in = gpu.alloc (%n) : memref<?xi32>
    %out = gpu.alloc (%c4) : memref<?xi32>
    gpu.memcpy %in, %h : memref<?xi32>, memref<?xi32>
    gpu.launch_func @kernels::@block_sums blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xi32>, %out : memref<?xi32>)
    %sums = memref.alloc(%c4) : memref<?xi32>
    gpu.memcpy %sums, %out : memref<?xi32>, memref<?xi32>
    // CHECK: [32640,  98176,  163712,  229248]
    %u = memref.cast %sums : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }
}
