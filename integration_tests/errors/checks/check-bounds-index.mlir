// --check-bounds checks each load and store of a kernel against its memref's
// shape, and names the op, the kernel, the block and the thread of the first
// bad access, also where the kernel runs its threads as one loop.
// RUN: %expect-exit-1 %gpu-runner %s --check-bounds 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Threads of block (1, 0) store at rows 4 and 5 of a 4x8 matrix; thread
    // (2, 0) is the first of them.
    gpu.func @fill(%m: memref<4x8xi32>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %c2 = arith.constant 2 : index
      %row = arith.muli %bx, %c2 : index
      %r = arith.addi %row, %ty : index
      %r2 = arith.addi %r, %tx : index
      %v = arith.constant 1 : i32
      // CHECK: check-bounds-index.mlir:[[# @LINE + 1]]:7: error: memcheck: memref.store: out-of-bounds store in kernel 'fill', block (1, 0, 0), thread (2, 0, 0): index 4 of dimension 0 is outside [0, 4), the memref's size there
      memref.store %v, %m[%r2, %tx] : memref<4x8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %m = gpu.alloc () : memref<4x8xi32>
    gpu.launch_func @kernels::@fill blocks in (%c2, %c1, %c1) threads in (%c3, %c2, %c1) args(%m : memref<4x8xi32>)
    gpu.dealloc %m : memref<4x8xi32>
    return
  }
}
