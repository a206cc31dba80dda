// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: syntax-unknown-type.mlir:[[# @LINE + 1]]:34: error: expected non-function type
  %m = memref.alloc() : memref<4xfloat>
  return
}
