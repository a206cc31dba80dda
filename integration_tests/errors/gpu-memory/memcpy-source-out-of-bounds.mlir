// The source side of a copy is checked too, with a strided view whose last
// row runs past the allocation.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %dev = gpu.alloc () : memref<4x8xf32>
  %host = memref.alloc() : memref<4x4xf32>
  %view = memref.reinterpret_cast %dev to offset: [6], sizes: [4, 4], strides: [8, 1]
      : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 6>>
  // CHECK: memcpy-source-out-of-bounds.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: out of bounds: the source {{.*}}128-byte allocation
  gpu.memcpy %host, %view : memref<4x4xf32>, memref<4x4xf32, strided<[8, 1], offset: 6>>
  gpu.dealloc %dev : memref<4x8xf32>
  return
}
