// Moves a host array to the device, scales nothing, and brings it back:
// the smallest program that exercises gpu.alloc, gpu.memcpy and gpu.memset.
//
//   scripts/run examples/memcpy-round-trip.mlir
//
// prints
//
//   Unranked Memref base@ = 0x... rank = 1 offset = 0 sizes = [8] strides = [1] data =
//   [0,  1,  2,  3,  4,  5,  6,  7]
//   Unranked Memref base@ = 0x... rank = 1 offset = 0 sizes = [8] strides = [1] data =
//   [0,  1,  2,  3,  -1,  -1,  -1,  -1]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %host = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.sitofp %ii : i32 to f32
    memref.store %v, %host[%i] : memref<8xf32>
  }

  // Host to device and back, asynchronously on one stream.
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
  %t2 = gpu.memcpy async [%t1] %dev, %host : memref<8xf32>, memref<8xf32>
  %back = memref.alloc() : memref<8xf32>
  %t3 = gpu.memcpy async [%t2] %back, %dev : memref<8xf32>, memref<8xf32>
  gpu.wait [%t3]
  %ub = memref.cast %back : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()

  // Overwrite the upper half on the device, then copy everything back.
  %minus = arith.constant -1.0 : f32
  %upper = memref.subview %dev[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  gpu.memset %upper, %minus : memref<4xf32, strided<[1], offset: 4>>, f32
  gpu.memcpy %back, %dev : memref<8xf32>, memref<8xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()

  gpu.dealloc %dev : memref<8xf32>
  memref.dealloc %host : memref<8xf32>
  memref.dealloc %back : memref<8xf32>
  return
}
