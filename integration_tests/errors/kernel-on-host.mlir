// RUN: not %gpu-runner %s 2>&1 | FileCheck %s
// REQUIRES: host

func.func @main() {
  %c1 = arith.constant 1 : index
  // CHECK: kernel-on-host.mlir:[[# @LINE + 1]]:3: error: 'gpu.launch': running kernels on the host backend is not supported yet
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
