// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

// CHECK: unresolved-external.mlir:[[# @LINE + 1]]:1: error: unresolved external function 'no_such_function'
func.func private @no_such_function(i32)

// Declared but never called: not an error.
func.func private @also_missing_but_unused()

func.func @main() {
  %c = arith.constant 1 : i32
  call @no_such_function(%c) : (i32) -> ()
  return
}
