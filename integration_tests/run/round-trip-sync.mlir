// RUN: %gpu-runner %s | FileCheck %s

// The same round trip with only the synchronous forms.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %src = memref.alloc() : memref<6xi32>
  %dst = memref.alloc() : memref<6xi32>
  %zero = arith.constant 0 : i32
  scf.for %i = %c0 to %c6 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.subi %zero, %ii : i32
    memref.store %v, %src[%i] : memref<6xi32>
    memref.store %zero, %dst[%i] : memref<6xi32>
  }

  %dev = gpu.alloc () : memref<6xi32, 1>
  gpu.memcpy %dev, %src : memref<6xi32, 1>, memref<6xi32>
  gpu.memcpy %dst, %dev : memref<6xi32>, memref<6xi32, 1>
  gpu.dealloc %dev : memref<6xi32, 1>

  // CHECK: [0,  -1,  -2,  -3,  -4,  -5]
  %u = memref.cast %dst : memref<6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
