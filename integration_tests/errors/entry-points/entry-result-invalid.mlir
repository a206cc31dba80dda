// RUN: %expect-exit-1 %gpu-runner %s --entry-point-result=i32 2>&1 >%t.out | FileCheck %s --check-prefix=WRONG
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s --entry-point-result=f64 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit-1 %gpu-runner %s -e takes_argument 2>&1 | FileCheck %s --check-prefix=ARGUMENT

// UNKNOWN: error: --entry-point-result=f64 is not one of void, i32, i64, f32

// WRONG: entry-result-invalid.mlir:[[# @LINE + 1]]:1: error: entry point 'main' returns nothing, but --entry-point-result=i32 was given
func.func @main() {
  return
}

// ARGUMENT: entry-result-invalid.mlir:[[# @LINE + 1]]:1: error: entry point 'takes_argument' takes 1 argument, but 0 --input values were given
func.func @takes_argument(%x: i32) {
  return
}
