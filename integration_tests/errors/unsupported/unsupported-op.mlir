// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

// An op of a dialect the runner accepts but cannot lower is named where it
// is, before anything runs.

func.func private @printI64(i64)

func.func @main() {
  %a = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  // CHECK: unsupported-op.mlir:[[# @LINE + 1]]:8: error: 'complex.bitcast' has no lowering to the LLVM dialect in gpu-runner
  %b = complex.bitcast %a : complex<f32> to i64
  call @printI64(%b) : (i64) -> ()
  return
}
