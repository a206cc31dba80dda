// A copy of 8 MiB or more runs in parts on several threads on the host
// backend; a fault in any part, on whichever thread copies it, is reported at
// the op, as the small copy's is in host-view-fault.mlir. The view covers a
// 1 MiB buffer and the 15 MiB past its end. Under AddressSanitizer the buffer
// is on the sanitizer's heap, whose memcpy reports the overflow itself
// (unittests' HostKernelsTest checks the op on every thread there too).
// UNSUPPORTED: sanitizers
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %host = memref.alloc() : memref<262144xf32>
  %dev = gpu.alloc () : memref<4194304xf32>
  %view = memref.reinterpret_cast %host to offset: [0], sizes: [4194304], strides: [1]
      : memref<262144xf32> to memref<4194304xf32>
  // CHECK: host-view-fault-large.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: invalid memory access at 0x{{[0-9a-f]+}}: the op reached memory outside what the program allocated (host memory is not checked before an op runs)
  gpu.memcpy %dev, %view : memref<4194304xf32>, memref<4194304xf32>
  gpu.dealloc %dev : memref<4194304xf32>
  memref.dealloc %host : memref<262144xf32>
  return
}
