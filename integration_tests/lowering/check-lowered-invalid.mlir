// RUN: %gpu-runner-opt --gpu-runner-check-lowered --split-input-file --verify-diagnostics %s

// An op without a lowering is named where it is.
llvm.func @f(%a: f32) -> f32 {
  // expected-error @below {{'arith.negf' has no lowering to the LLVM dialect in gpu-runner}}
  %0 = arith.negf %a : f32
  llvm.return %0 : f32
}

// -----

// A cast left alone means a type that could not be converted.
llvm.func @g(%a: i64) -> i64 {
  // expected-error @below {{a value of type 'i64' could not be converted to 'index'}}
  %0 = builtin.unrealized_conversion_cast %a : i64 to index
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  llvm.return %1 : i64
}
