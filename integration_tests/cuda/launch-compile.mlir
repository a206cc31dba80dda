// --launch compiles without a device: the generated host code and the
// kernel, for sm_90; its flags' mistakes are reported as on the host.
// REQUIRES: cuda-runner, ptxas
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --no-cache --gpu-chip=sm_90 --dump-gpu-binary=%t %s --launch=kernels::scale --grid=2,2 --block=4 --dynamic-shared-memory=16
// RUN: ls %t | FileCheck %s --check-prefix=BINARY
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only --no-cache --gpu-chip=sm_90 %s --launch=kernels::other --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only %s --launch=kernels::scale --grid=1,0 --block=1 2>&1 | FileCheck %s --check-prefix=GRID

// BINARY: kernels.fatbin
// GRID: error: --grid=1,0: give one to three sizes from 1 to 2147483647, separated by commas: X[,Y[,Z]]
module attributes {gpu.container_module} {
  // UNKNOWN: launch-compile.mlir:[[# @LINE + 1]]:3: error: --launch: gpu.module 'kernels' has no kernel named 'other'; the kernels there are: kernels::scale
  gpu.module @kernels {
    gpu.func @scale(%data: memref<?xf32>, %factor: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<?xf32>
      %w = arith.mulf %v, %factor : f32
      memref.store %w, %data[%i] : memref<?xf32>
      gpu.return
    }
  }
}
