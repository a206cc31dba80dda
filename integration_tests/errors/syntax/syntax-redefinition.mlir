// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: syntax-redefinition.mlir:[[# @LINE + 3]]:3: error: redefinition of SSA value '%c'
  // CHECK: syntax-redefinition.mlir:[[# @LINE + 1]]:3: note: previously defined here
  %c = arith.constant 1 : i32
  %c = arith.constant 2 : i32
  return
}
