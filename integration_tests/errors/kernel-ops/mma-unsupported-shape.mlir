// A matrix the gpu dialect accepts but NVIDIA GPUs do not have is an error
// at the op that uses it, before anything runs: the host backend runs the
// warp matrix operations of CUDA C++ Programming Guide, Warp Matrix
// Functions, Element Types and Matrix Sizes (lowering/host-mma-invalid.mlir
// has the other cases).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @narrow(%m: memref<16x8xf32>, %x: f32) kernel {
      %c0 = arith.constant 0 : index
      // CHECK: mma-unsupported-shape.mlir:[[# @LINE + 1]]:12: error: 'gpu.subgroup_mma_constant_matrix' cannot run on the host backend: NVIDIA GPUs have no '!gpu.mma_matrix<16x8xf32, "COp">' (C matrices of f16, f32 and i32 are 16x16, 32x8 or 8x32)
      %a = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x8xf32, "COp">
      gpu.subgroup_mma_store_matrix %a, %m[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<16x8xf32, "COp">, memref<16x8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %x = arith.constant 1.0 : f32
    %m = gpu.alloc () : memref<16x8xf32>
    gpu.launch_func @kernels::@narrow blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%m : memref<16x8xf32>, %x : f32)
    gpu.dealloc %m : memref<16x8xf32>
    return
  }
}
