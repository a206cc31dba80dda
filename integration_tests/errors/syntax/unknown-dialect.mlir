// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: unknown-dialect.mlir:[[# @LINE + 1]]:8: error: Dialect `shape' not found for custom op 'shape.const_shape'
  %s = shape.const_shape [1, 2] : tensor<2xindex>
  return
}
