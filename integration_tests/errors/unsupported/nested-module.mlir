// A nested builtin.module that holds ops is refused at the module, before
// anything runs: gpu-runner runs the top-level module alone, and would
// otherwise leave the nested functions silently unrun. An empty one is
// dropped (run/nested-module.mlir).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

module {
  // CHECK: nested-module.mlir:[[# @LINE + 1]]:3: error: a nested 'builtin.module' that holds ops is not run: gpu-runner runs the top-level module's functions and kernels; move what it holds to the top level (an empty nested module is dropped)
  module @inner {
    func.func @helper() {
      return
    }
  }
  func.func @main() {
    return
  }
}
