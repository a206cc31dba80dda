// Dynamic shapes that agree in their element count but not dimension by
// dimension are still a mismatch.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %host = memref.alloc(%c2, %c6) : memref<?x?xf32>
  %dev = gpu.alloc (%c6, %c2) : memref<?x?xf32>
  // CHECK: shape-mismatch-2d.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: shape mismatch: the source is 2x6 but the destination is 6x2
  gpu.memcpy %dev, %host : memref<?x?xf32>, memref<?x?xf32>
  gpu.dealloc %dev : memref<?x?xf32>
  return
}
