// The gpu dialect's mma ops are refused by name for AMD GPUs, before
// anything is compiled: upstream has no ROCDL lowering of them (the host
// backend runs them: run/kernels/mma-*.mlir).
// REQUIRES: hip-runner
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%m: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      // CHECK: mma-refused.mlir:[[# @LINE + 1]]:12: error: 'gpu.subgroup_mma_load_matrix' cannot be compiled for AMD GPUs: upstream MLIR lowers the gpu dialect's mma ops to NVVM only; run the program with gpu-runner-host or gpu-runner-cuda
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %a, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<16x16xf16>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%m : memref<16x16xf16>)
    gpu.dealloc %m : memref<16x16xf16>
    return
  }
}
