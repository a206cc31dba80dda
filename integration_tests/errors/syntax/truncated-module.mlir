// A file that ends before the module it opened is closed.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// CHECK: truncated-module.mlir:[[# @LINE + 6]]:4: error: expected operation name in quotes
// CHECK: note: the input ends here: it may be truncated

module attributes {gpu.container_module} {
  func.func @main() {
    return
  }
