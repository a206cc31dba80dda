// Copies a 2x3 block into the middle of a 6x6 device matrix and reads one
// column of the result back: strided copies in both directions, each one
// runtime call, not one per element.
//
//   scripts/run examples/matrix-window.mlir
//
// prints the matrix with the block at row 2, column 1, then its column 2:
//
//   [[0,   0,   0,   0,   0,   0],
//    [0,   0,   0,   0,   0,   0],
//    [0,   1,   2,   3,   0,   0],
//    [0,   4,   5,   6,   0,   0],
//    [0,   0,   0,   0,   0,   0],
//    [0,   0,   0,   0,   0,   0]]
//   [0,  0,  2,  5,  0,  0]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %block = memref.alloc() : memref<2x3xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %k = affine.apply affine_map<(i, j) -> (i * 3 + j + 1)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %v = arith.sitofp %ki : i32 to f32
      memref.store %v, %block[%i, %j] : memref<2x3xf32>
    }
  }

  %zero = arith.constant 0.0 : f32
  %matrix = gpu.alloc () : memref<6x6xf32>
  gpu.memset %matrix, %zero : memref<6x6xf32>, f32
  %window = memref.subview %matrix[2, 1] [2, 3] [1, 1]
      : memref<6x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 13>>
  gpu.memcpy %window, %block : memref<2x3xf32, strided<[6, 1], offset: 13>>, memref<2x3xf32>

  %result = memref.alloc() : memref<6x6xf32>
  gpu.memcpy %result, %matrix : memref<6x6xf32>, memref<6x6xf32>
  %ur = memref.cast %result : memref<6x6xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()

  %column = memref.subview %matrix[0, 2] [6, 1] [1, 1]
      : memref<6x6xf32> to memref<6xf32, strided<[6], offset: 2>>
  %hostColumn = memref.alloc() : memref<6xf32>
  gpu.memcpy %hostColumn, %column : memref<6xf32>, memref<6xf32, strided<[6], offset: 2>>
  %uc = memref.cast %hostColumn : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()

  gpu.dealloc %matrix : memref<6x6xf32>
  return
}
