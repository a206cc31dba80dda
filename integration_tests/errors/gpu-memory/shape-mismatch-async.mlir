// An asynchronous copy is checked when it is enqueued, at its own location.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %host = memref.alloc(%c4) : memref<?xi32>
  %dev = gpu.alloc (%c5) : memref<?xi32>
  %t0 = gpu.wait async
  // CHECK: shape-mismatch-async.mlir:[[# @LINE + 1]]:9: error: gpu.memcpy: shape mismatch: the source is 5 but the destination is 4
  %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xi32>, memref<?xi32>
  gpu.wait [%t1]
  gpu.dealloc %dev : memref<?xi32>
  return
}
