// An allocation with a size of 0 has 0 bytes, however large its other sizes:
// the size check must not refuse it for their product, on the host or the
// device.
// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %huge = arith.constant 4611686018427387904 : index
  %host = memref.alloc(%huge, %c0) : memref<?x?xf32>
  %rows = memref.dim %host, %c0 : memref<?x?xf32>
  // CHECK: 4611686018427387904
  vector.print %rows : index
  memref.dealloc %host : memref<?x?xf32>
  %dev = gpu.alloc (%c0, %huge) : memref<?x?xf32>
  %columns = memref.dim %dev, %c1 : memref<?x?xf32>
  // CHECK-NEXT: 4611686018427387904
  vector.print %columns : index
  gpu.dealloc %dev : memref<?x?xf32>
  return
}
