// RUN: %expect-exit-1 %gpu-runner %s --entry-point-result=i32 2>&1 | FileCheck %s

func.func @main() -> i32 {
  // CHECK: verifier-return-count.mlir:[[# @LINE + 1]]:3: error: 'func.return' op has 0 operands, but enclosing function (@main) returns 1
  return
}
