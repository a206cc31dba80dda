// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// A 2x3 host block copied into the window at (2, 1) of a 6x6 device matrix:
// the window changes and nothing else does.

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

  %minus = arith.constant -1.0 : f32
  %matrix = gpu.alloc () : memref<6x6xf32>
  gpu.memset %matrix, %minus : memref<6x6xf32>, f32
  %window = memref.subview %matrix[2, 1] [2, 3] [1, 1]
      : memref<6x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 13>>
  gpu.memcpy %window, %block : memref<2x3xf32, strided<[6, 1], offset: 13>>, memref<2x3xf32>

  %result = memref.alloc() : memref<6x6xf32>
  gpu.memcpy %result, %matrix : memref<6x6xf32>, memref<6x6xf32>
  gpu.dealloc %matrix : memref<6x6xf32>

  // CHECK:      [-1,   -1,   -1,   -1,   -1,   -1],
  // CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1],
  // CHECK-NEXT: [-1,   1,   2,   3,   -1,   -1],
  // CHECK-NEXT: [-1,   4,   5,   6,   -1,   -1],
  // CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1],
  // CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1]]
  %u = memref.cast %result : memref<6x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
