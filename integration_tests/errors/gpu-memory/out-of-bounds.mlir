// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// A view that claims more than was allocated: the copy would run past the
// end of the allocation, and is stopped.

func.func @main() {
  %host = memref.alloc() : memref<16xf32>
  %dev = gpu.alloc () : memref<8xf32>
  %wide = memref.reinterpret_cast %dev to offset: [0], sizes: [16], strides: [1]
      : memref<8xf32> to memref<16xf32>
  // CHECK: out-of-bounds.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: {{.*}}out of bounds
  gpu.memcpy %wide, %host : memref<16xf32>, memref<16xf32>
  return
}
