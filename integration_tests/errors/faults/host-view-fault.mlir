// The runtime checks device memory before a copy runs, but host memory only
// for null: a host view far outside its buffer faults inside the copy, and
// that is reported at the op, with exit status 1, not as a crash.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %host = memref.alloc() : memref<4xf32>
  %dev = gpu.alloc () : memref<4xf32>
  %off = arith.constant -1000000000000 : index
  %view = memref.reinterpret_cast %host to offset: [%off], sizes: [4], strides: [1]
      : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  // CHECK: host-view-fault.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: invalid memory access at 0x{{[0-9a-f]+}}: the op reached memory outside what the program allocated (host memory is not checked before an op runs)
  gpu.memcpy %dev, %view : memref<4xf32>, memref<4xf32, strided<[1], offset: ?>>
  gpu.dealloc %dev : memref<4xf32>
  return
}
