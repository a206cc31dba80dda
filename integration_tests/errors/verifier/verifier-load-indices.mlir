// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %m = gpu.alloc () : memref<4x4xf32>
  %c0 = arith.constant 0 : index
  // CHECK: verifier-load-indices.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op incorrect number of indices for load, expected 2 but got 1
  %v = memref.load %m[%c0] : memref<4x4xf32>
  return
}
