// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %a = arith.constant 1 : i32
  // CHECK: syntax-type-mismatch.mlir:[[# @LINE + 1]]:19: error: use of value '%a' expects different type than prior uses: 'i64' vs 'i32'
  %b = arith.addi %a, %a : i64
  return
}
