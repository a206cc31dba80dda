// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // The parser points at the token after the bad literal.
  // CHECK: verifier-constant-type.mlir:[[# @LINE + 2]]:3: error: floating point value not valid for specified type
  %c = arith.constant 1.5 : i32
  return
}
