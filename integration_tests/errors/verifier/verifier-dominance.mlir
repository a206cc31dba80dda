// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: verifier-dominance.mlir:[[# @LINE + 2]]:8: error: operand #0 does not dominate this use
  // CHECK: verifier-dominance.mlir:[[# @LINE + 2]]:8: note: operand defined here
  %a = arith.addi %b, %b : i32
  %b = arith.constant 1 : i32
  return
}
