// RUN: %gpu-runner %s | FileCheck %s

// Two copies on two streams fill the two halves of a device buffer; a copy
// that depends on both joins the streams and reads the whole buffer.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %low = memref.alloc() : memref<4xf32>
  %high = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<8xf32>
  %ten = arith.constant 10.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.addf %f, %ten : f32
    memref.store %f, %low[%i] : memref<4xf32>
    memref.store %g, %high[%i] : memref<4xf32>
  }

  %dev = gpu.alloc () : memref<8xf32>
  %devLow = memref.subview %dev[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %devHigh = memref.subview %dev[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %a = gpu.memcpy async %devLow, %low : memref<4xf32, strided<[1]>>, memref<4xf32>
  %b = gpu.memcpy async %devHigh, %high : memref<4xf32, strided<[1], offset: 4>>, memref<4xf32>
  %j = gpu.memcpy async [%a, %b] %out, %dev : memref<8xf32>, memref<8xf32>
  gpu.wait [%j]

  // CHECK: [0,  1,  2,  3,  10,  11,  12,  13]
  %u = memref.cast %out : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  gpu.dealloc %dev : memref<8xf32>
  return
}
