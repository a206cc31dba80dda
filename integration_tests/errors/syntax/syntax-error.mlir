// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

func.func @main() {
  %c1 = arith.constant 1 : index
  // CHECK: syntax-error.mlir:[[# @LINE + 1]]:18: error: expected SSA operand
  %x = arith.addi , %c1 : index
  return
}
