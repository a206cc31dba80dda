// Data through device memory, on every backend and stand-in: the entry
// point copies its --input to a gpu.alloc and back into a new memref,
// which is the result.
// RUN: %gpu-runner %s --input=2x4xi32=0,1,2,3,4,5,6,7 --expected-output=2x4xi32=0,1,2,3,4,5,6,7 | FileCheck %s

// CHECK:      result[0]: memref<?x4xi32>
// CHECK-NEXT: {{\[}}[0,   1,   2,   3],
// CHECK-NEXT:  [4,   5,   6,   7]]
// CHECK-NEXT: expected outputs: 1 result (8 elements) matched
func.func @main(%in: memref<?x4xi32>) -> memref<?x4xi32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?x4xi32>
  %dev = gpu.alloc (%n) : memref<?x4xi32>
  gpu.memcpy %dev, %in : memref<?x4xi32>, memref<?x4xi32>
  %out = memref.alloc (%n) : memref<?x4xi32>
  gpu.memcpy %out, %dev : memref<?x4xi32>, memref<?x4xi32>
  gpu.dealloc %dev : memref<?x4xi32>
  return %out : memref<?x4xi32>
}
