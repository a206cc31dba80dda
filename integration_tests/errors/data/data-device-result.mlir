// A result in device memory cannot be read on the host: an error that says
// which allocation it is, with exit status 1.
// RUN: %expect-exit-1 %gpu-runner %s --input=4xf32=1 2>&1 | FileCheck %s

// CHECK: error: result[0]: the returned memref is device memory (the 16-byte allocation made by gpu.alloc at {{.*}}data-device-result.mlir:[[# @LINE + 2]]:10): copy it to host memory (gpu.memcpy) and return that
func.func @main(%in: memref<4xf32>) -> memref<4xf32> {
  %dev = gpu.alloc () : memref<4xf32>
  gpu.memcpy %dev, %in : memref<4xf32>, memref<4xf32>
  return %dev : memref<4xf32>
}
