// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: unknown-dialect.mlir:[[# @LINE + 1]]:8: error: Dialect `tensor' not found for custom op 'tensor.empty'
  %t = tensor.empty() : tensor<4xf32>
  return
}
