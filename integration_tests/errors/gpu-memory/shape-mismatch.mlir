// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// Dynamic shapes that disagree at run time: the copy does not happen, and the
// error names the op, where it is, and both shapes.

func.func @main() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %host = memref.alloc(%c4) : memref<?x5xf32>
  %dev = gpu.alloc (%c3) : memref<?x5xf32>
  // CHECK: shape-mismatch.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: shape mismatch: the source is 4x5 but the destination is 3x5
  gpu.memcpy %dev, %host : memref<?x5xf32>, memref<?x5xf32>
  return
}
