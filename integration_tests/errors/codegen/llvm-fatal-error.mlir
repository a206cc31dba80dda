// One of LLVM's fatal errors (here: instruction selection cannot lower
// another target's intrinsic) is an error that says what the runner was
// doing, with exit status 1, not "LLVM ERROR" and an abort.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// CHECK: error: LLVM cannot go on while generating code for the program: Cannot select: intrinsic %llvm.aarch64.isb
// CHECK-NOT: PLEASE submit a bug report

llvm.func @main() {
  %0 = llvm.mlir.constant(15 : i32) : i32
  llvm.call_intrinsic "llvm.aarch64.isb"(%0) : (i32) -> ()
  llvm.return
}
