// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // The allocation is 40 bytes; the view claims 64.
  %dev = gpu.alloc () : memref<10xf32>
  %wide = memref.reinterpret_cast %dev to offset: [0], sizes: [16], strides: [1]
      : memref<10xf32> to memref<16xf32>
  %v = arith.constant 1.0 : f32
  // CHECK: memset-out-of-bounds.mlir:[[# @LINE + 1]]:3: error: gpu.memset: out of bounds: {{.*}} of the 40-byte allocation made by gpu.alloc at {{.*}}memset-out-of-bounds.mlir:5:10
  gpu.memset %wide, %v : memref<16xf32>, f32
  return
}
