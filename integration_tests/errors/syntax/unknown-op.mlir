// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: unknown-op.mlir:[[# @LINE + 1]]:8: error: custom op 'arith.frobnicate' is unknown
  %c = arith.frobnicate : i32
  return
}
