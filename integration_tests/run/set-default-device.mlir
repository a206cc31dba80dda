// RUN: %gpu-runner %s | FileCheck %s

// gpu.set_default_device 0 chooses the first device, which every backend
// has (the host backend has only it), and the ops after it run there.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %zero = arith.constant 0 : i32
  gpu.set_default_device %zero
  %c7 = arith.constant 7 : i32
  %d = gpu.alloc () : memref<4xi32>
  gpu.memset %d, %c7 : memref<4xi32>, i32
  %h = memref.alloc () : memref<4xi32>
  gpu.memcpy %h, %d : memref<4xi32>, memref<4xi32>
  %u = memref.cast %h : memref<4xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [7,  7,  7,  7]
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %d : memref<4xi32>
  memref.dealloc %h : memref<4xi32>
  return
}
