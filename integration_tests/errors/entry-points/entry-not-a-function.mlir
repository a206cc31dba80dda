// RUN: %expect-exit-1 %gpu-runner %s -e table 2>&1 | FileCheck %s

// CHECK: entry-not-a-function.mlir:[[# @LINE + 1]]:1: error: entry point 'table' is not a function
llvm.mlir.global internal @table(0 : i32) : i32

func.func @main() {
  return
}
