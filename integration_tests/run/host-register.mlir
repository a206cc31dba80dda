// RUN: %gpu-runner %s | FileCheck %s

// Host memory registered with the device around the copies that use it.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %v = arith.constant 0.5 : f32
  %host = memref.alloc() : memref<3xf32>
  %u = memref.cast %host : memref<3xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  %dev = gpu.alloc () : memref<3xf32>
  gpu.memset %dev, %v : memref<3xf32>, f32
  gpu.memcpy %host, %dev : memref<3xf32>, memref<3xf32>
  gpu.host_unregister %u : memref<*xf32>
  gpu.dealloc %dev : memref<3xf32>
  // CHECK: [0.5,  0.5,  0.5]
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
