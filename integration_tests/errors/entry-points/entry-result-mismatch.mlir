// The entry point's result and --entry-point-result must agree; nothing
// runs otherwise.
// RUN: %expect-exit-1 %gpu-runner %s -e answer --entry-point-result=void 2>&1 >%t.out | FileCheck %s --check-prefix=VOID
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e answer --entry-point-result=i64 2>&1 | FileCheck %s --check-prefix=I64
// RUN: %expect-exit-1 %gpu-runner %s -e ratio --entry-point-result=i32 2>&1 | FileCheck %s --check-prefix=F32

func.func private @printI64(i64)

// VOID: entry-result-mismatch.mlir:[[# @LINE + 2]]:1: error: entry point 'answer' returns 'i32', but --entry-point-result=void was given
// I64: entry-result-mismatch.mlir:[[# @LINE + 1]]:1: error: entry point 'answer' returns 'i32', but --entry-point-result=i64 was given
func.func @answer() -> i32 {
  %c = arith.constant 42 : i32
  %w = arith.extsi %c : i32 to i64
  call @printI64(%w) : (i64) -> ()
  return %c : i32
}

// F32: entry-result-mismatch.mlir:[[# @LINE + 1]]:1: error: entry point 'ratio' returns 'f32', but --entry-point-result=i32 was given
func.func @ratio() -> f32 {
  %c = arith.constant 0.5 : f32
  return %c : f32
}
