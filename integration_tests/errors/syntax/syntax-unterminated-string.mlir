// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

func.func private @puts(!llvm.ptr) -> i32

func.func @main() {
  // CHECK: syntax-unterminated-string.mlir:[[# @LINE + 1]]:50: error: expected '"' in string literal
  llvm.mlir.global internal constant @text("hello
  return
}
