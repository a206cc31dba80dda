// A lane holds 16 * 16 / 32 = 8 elements of a 16x16 matrix on the host
// backend: a thread-local index outside [0, 8) is an error at the op, which
// the dialect leaves undefined ("at each index in [0, (M * N) / S)").
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @past_the_end(%m: memref<16x16xf32>, %out: memref<32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      // CHECK: mma-thread-local-index.mlir:[[# @LINE + 1]]:12: error: gpu.subgroup_mma_extract_thread_local: kernel 'past_the_end', block (0, 0, 0), thread (0, 0, 0): index 8 is outside [0, 8), the lane's part of the matrix: each of the 32 lanes holds 8 of its elements
      %v = gpu.subgroup_mma_extract_thread_local %a[%c8] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
      %lane = gpu.lane_id
      memref.store %v, %out[%lane] : memref<32xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<16x16xf32>
    %out = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@past_the_end blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%m : memref<16x16xf32>, %out : memref<32xf32>)
    gpu.dealloc %m : memref<16x16xf32>
    gpu.dealloc %out : memref<32xf32>
    return
  }
}
