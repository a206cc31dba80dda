// An inline gpu.launch is checked like gpu.launch_func, at its own location.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: launch-inline-zero-threads.mlir:[[# @LINE + 1]]:3: error: gpu.launch_func: kernel 'main_kernel': block size 0 in x: every dimension of the grid and of a block must be at least 1
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c0, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
