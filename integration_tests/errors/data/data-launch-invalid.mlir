// --launch's mistakes: a kernel that is not there (the kernels that are
// listed), arguments that do not fit the gpu.func, flags that do not parse.
// RUN: %expect-exit-1 %gpu-runner %s --launch=nowhere::k --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN-MODULE
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::nothing --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::scale --grid=1 --block=1 --input=2 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::scale --grid=1 --block=1 --input=2 --input=4xf64=0 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::strided --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::scale --grid=0 --block=1 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::scale --grid=1 --block=1,2,3,4 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::scale --grid=1 2>&1 | FileCheck %s --check-prefix=NO-BLOCK
// RUN: %expect-exit-1 %gpu-runner %s --launch=scale --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::scale -e main --grid=1 --block=1 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: %expect-exit-1 %gpu-runner %s --grid=1 2>&1 | FileCheck %s --check-prefix=NO-LAUNCH

// UNKNOWN-MODULE: data-launch-invalid.mlir:[[# @LINE + 6]]:1: error: --launch: no gpu.module named 'nowhere'; the kernels there are: kernels::scale, kernels::strided
// KERNEL: data-launch-invalid.mlir:[[# @LINE + 8]]:3: error: --launch: gpu.module 'kernels' has no kernel named 'nothing'; the kernels there are: kernels::scale, kernels::strided
// GRID: error: --grid=0: give one to three sizes from 1 to 2147483647, separated by commas: X[,Y[,Z]]
// BLOCK: error: --block=1,2,3,4: give one to three sizes from 1 to 2147483647, separated by commas: X[,Y[,Z]]
// NO-BLOCK: error: --launch needs --grid and --block: the blocks and the threads of each, as X[,Y[,Z]]
// NAME: error: --launch=scale: name the kernel as MODULE::KERNEL, e.g. --launch=kernels::saxpy
module attributes {gpu.container_module} {
  // ENTRY: error: --launch runs a kernel with host code of its own; -e names a host function to run: give one of them
  // NO-LAUNCH: error: --grid, --block and --dynamic-shared-memory are for --launch, which names the kernel to run
  gpu.module @kernels {
    // COUNT: data-launch-invalid.mlir:[[# @LINE + 2]]:5: error: kernel 'kernels::scale' takes 2 arguments, but 1 --input value was given
    // TYPE: data-launch-invalid.mlir:[[# @LINE + 1]]:5: error: argument 1: expected memref<?xf32>, got 4xf64
    gpu.func @scale(%a: f32, %x: memref<?xf32>) kernel {
      gpu.return
    }
    // LAYOUT: data-launch-invalid.mlir:[[# @LINE + 1]]:5: error: --launch: argument 0 of kernel 'strided' is 'memref<4xf32, strided<[2]>>', which --input cannot give: it gives index, integer (i1 to i64) and float (f16, f32, f64) scalars, and memrefs of them with an identity layout
    gpu.func @strided(%x: memref<4xf32, strided<[2]>>) kernel {
      gpu.return
    }
  }
}
