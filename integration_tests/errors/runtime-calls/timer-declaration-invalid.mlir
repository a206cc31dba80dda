// A program that declares a runtime function with another type than the
// runtime's is stopped before it runs: the JIT would bind the name anyway.
// RUN: not %gpu-runner %s 2>&1 | FileCheck %s

func.func private @mgpuTimerCreate() -> !llvm.ptr
// CHECK: timer-declaration-invalid.mlir:[[# @LINE + 1]]:1: error: 'mgpuTimerElapsedNs' is declared with type '!llvm.func<i32 (ptr)>' once lowered, but gpu-runner's runtime defines it as '!llvm.func<i64 (ptr)>'
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i32

func.func @main() {
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  %ns = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i32
  return
}
