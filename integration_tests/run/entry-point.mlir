// The entry point and its result, as mlir-runner takes them.
// RUN: %gpu-runner %s -e answer_i32 --entry-point-result=i32 | FileCheck %s --check-prefix=I32
// RUN: %gpu-runner %s --entry-point=answer_i64 --entry-point-result=i64 | FileCheck %s --check-prefix=I64
// RUN: %gpu-runner %s -e answer_f32 --entry-point-result=f32 | FileCheck %s --check-prefix=F32
// RUN: %gpu-runner %s -O0 -e answer_i32 --entry-point-result=i32 | FileCheck %s --check-prefix=I32
// RUN: %gpu-runner %s -O3 -e answer_i32 --entry-point-result=i32 | FileCheck %s --check-prefix=I32
// RUN: %gpu-runner %s | count 0

// I32: {{^}}-42{{$}}
// I64: {{^}}8589934592{{$}}
// F32: {{^}}1.500000e+00{{$}}

func.func @main() {
  return
}

func.func @answer_i32() -> i32 {
  %0 = arith.constant -42 : i32
  return %0 : i32
}

func.func @answer_i64() -> i64 {
  %0 = arith.constant 8589934592 : i64
  return %0 : i64
}

func.func @answer_f32() -> f32 {
  %0 = arith.constant 1.5 : f32
  return %0 : f32
}
