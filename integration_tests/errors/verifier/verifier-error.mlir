// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %dst = memref.alloc() : memref<4xf32>
  %src = memref.alloc() : memref<4xi32>
  // CHECK: verifier-error.mlir:[[# @LINE + 1]]:3: error: 'gpu.memcpy' op arguments have incompatible element type
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xi32>
  return
}
