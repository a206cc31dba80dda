// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: syntax-unexpected-character.mlir:[[# @LINE + 1]]:8: error: unexpected character
  %c = $ arith.constant 1 : i32
  return
}
