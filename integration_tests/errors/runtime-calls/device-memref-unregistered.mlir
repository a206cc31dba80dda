// mgpuMemGetDeviceMemRef1dFloat of host memory that gpu.host_register did
// not register is an error at the call, as hipHostGetDevicePointer and
// cuMemHostGetDevicePointer fail for it: such memory has no device address.
// A call with other types than the runtime's is refused before the run.
// RUN: %expect-exit-1 %gpu-runner --split-input-file %s 2>&1 | FileCheck %s

func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>

func.func @main() {
  %floats = memref.alloc() : memref<5xf32>
  %dynamic = memref.cast %floats : memref<5xf32> to memref<?xf32>
  // CHECK: device-memref-unregistered.mlir:[[# @LINE + 1]]:13: error: mgpuMemGetDeviceMemRef1dFloat: 0x{{[0-9a-f]+}} is not in host memory that gpu.host_register registered: only such memory has a device address
  %device = call @mgpuMemGetDeviceMemRef1dFloat(%dynamic)
      : (memref<?xf32>) -> memref<?xf32>
  memref.dealloc %floats : memref<5xf32>
  return
}

// -----

// CHECK: device-memref-unregistered.mlir:[[# @LINE + 1]]:1: error: 'mgpuMemGetDeviceMemRef1dInt32' is declared with other types than the ROCm runtime's, which takes one memref<?xi32> and returns one
func.func private @mgpuMemGetDeviceMemRef1dInt32(memref<?xi64>) -> memref<?xi64>

func.func @main() {
  %ints = memref.alloc() : memref<5xi64>
  %dynamic = memref.cast %ints : memref<5xi64> to memref<?xi64>
  %device = call @mgpuMemGetDeviceMemRef1dInt32(%dynamic)
      : (memref<?xi64>) -> memref<?xi64>
  memref.dealloc %ints : memref<5xi64>
  return
}
