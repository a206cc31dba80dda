// Static shapes that differ are caught by the verifier, before anything
// runs (dynamic ones at run time: see gpu-memory/shape-mismatch.mlir).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %host = memref.alloc() : memref<4xf32>
  %dev = gpu.alloc () : memref<8xf32>
  // CHECK: verifier-memcpy-shapes.mlir:[[# @LINE + 1]]:3: error: 'gpu.memcpy' op arguments have incompatible shape
  gpu.memcpy %dev, %host : memref<8xf32>, memref<4xf32>
  return
}
