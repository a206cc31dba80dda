// An empty builtin.module nested in the program, as a transform script
// erased by the interpreter leaves behind (mlir-opt
// -test-transform-dialect-erase-schedule), is dropped; the program runs.
// errors/unsupported/nested-module.mlir: a nested module that holds ops.
// RUN: %gpu-runner %s | FileCheck %s

// CHECK: 42

module {
  module {
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %v = arith.constant 42 : i64
    call @printI64(%v) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
