// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// CHECK: entry-vararg.mlir:[[# @LINE + 1]]:1: error: entry point 'main' must take no arguments, but its type is '!llvm.func<void (...)>'
llvm.func @main(...) {
  llvm.return
}
