// A view that starts before its allocation.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %dev = gpu.alloc () : memref<16xf32>
  %host = memref.alloc() : memref<4xf32>
  %off = arith.constant -4 : index
  %view = memref.reinterpret_cast %dev to offset: [%off], sizes: [4], strides: [1]
      : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
  // CHECK: memcpy-negative-offset.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: the destination 0x{{[0-9a-f]+}} is not a device allocation: it points into device memory that no allocation holds
  gpu.memcpy %view, %host : memref<4xf32, strided<[1], offset: ?>>, memref<4xf32>
  gpu.dealloc %dev : memref<16xf32>
  return
}
