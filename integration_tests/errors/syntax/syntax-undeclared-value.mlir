// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %c1 = arith.constant 1 : i32
  // CHECK: syntax-undeclared-value.mlir:[[# @LINE + 1]]:26: error: use of undeclared SSA value name
  %sum = arith.addi %c1, %c2 : i32
  return
}
