// Warp matrix operations need every lane of the subgroup: a GPU's "must be
// called by all threads in the warp, or the result is undefined" (CUDA C++
// Programming Guide, Warp Matrix Functions). A block of 48 threads ends in a
// subgroup of 16 lanes, whose first thread to reach an mma op stops the run
// with an error at it.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @partial(%m: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      // CHECK: mma-partial-subgroup.mlir:[[# @LINE + 1]]:12: error: gpu.subgroup_mma_load_matrix: kernel 'partial', block (0, 0, 0), thread (32, 0, 0): the thread's subgroup has 16 of 32 lanes (the block's size is not a multiple of 32); warp matrix operations need every lane of the subgroup, as on a GPU, where they "must be called by all threads in the warp" (CUDA C++ Programming Guide, Warp Matrix Functions)
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %a, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c48 = arith.constant 48 : index
    %m = gpu.alloc () : memref<16x16xf16>
    gpu.launch_func @kernels::@partial blocks in (%c1, %c1, %c1) threads in (%c48, %c1, %c1)
        args(%m : memref<16x16xf16>)
    gpu.dealloc %m : memref<16x16xf16>
    return
  }
}
