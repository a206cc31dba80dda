// --launch compiles without a device: the generated host code and the
// kernel, for gfx90a; its flags' mistakes are reported as on the host.
// REQUIRES: hip-runner
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx90a --dump-gpu-binary=%t %s --launch=kernels::scale --grid=2,2 --block=4 --dynamic-shared-memory=16
// RUN: ls %t | FileCheck %s --check-prefix=BINARY
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx90a %s --launch=kernels::other --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only %s --launch=kernels::scale --grid=1,0 --block=1 2>&1 | FileCheck %s --check-prefix=GRID

// BINARY: kernels.hsaco
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
