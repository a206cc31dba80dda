// Sizes no device has room for, and negative sizes, are errors at the op
// rather than a process that swaps or crashes.
// RUN: %expect-exit-1 %gpu-runner %s -e huge 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %expect-exit-1 %gpu-runner %s -e negative 2>&1 | FileCheck %s --check-prefix=NEGATIVE

func.func @huge() {
  %n = arith.constant 1099511627776 : index
  // HUGE: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: out of device memory: cannot allocate 1099511627776 bytes with 0 bytes already allocated
  %m = gpu.alloc (%n) : memref<?xi8>
  %z = arith.constant 0 : i8
  gpu.memset %m, %z : memref<?xi8>, i8
  return
}

func.func @negative() {
  %n = arith.constant -3 : index
  // NEGATIVE: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: cannot allocate a negative size: -12 bytes
  %m = gpu.alloc (%n) : memref<?xf32>
  %z = arith.constant 0.0 : f32
  gpu.memset %m, %z : memref<?xf32>, f32
  return
}
