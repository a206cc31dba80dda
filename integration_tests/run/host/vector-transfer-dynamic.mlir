// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// RUN: %gpu-runner -O0 %s | FileCheck %s

// 2-D vector transfers on a memref of dynamic shape in host code, in bounds,
// partly out of bounds (padding), transposed and written; and a subview with
// dynamic offsets. convert-vector-to-scf and expand-strided-metadata make
// affine.apply ops, which the affine lowering after them lowers.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // m[i][j] = 10 i + j, 3 x 4.
  %m = memref.alloc(%c3, %c4) : memref<?x?xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %ten = arith.constant 10 : index
      %ti = arith.muli %i, %ten : index
      %k = arith.addi %ti, %j : index
      %ki = arith.index_cast %k : index to i32
      %f = arith.sitofp %ki : i32 to f32
      memref.store %f, %m[%i, %j] : memref<?x?xf32>
    }
  }
  %pad = arith.constant -1.0 : f32

  // CHECK: ( ( 0, 1, 2, 3 ), ( 10, 11, 12, 13 ), ( 20, 21, 22, 23 ) )
  %v = vector.transfer_read %m[%c0, %c0], %pad : memref<?x?xf32>, vector<3x4xf32>
  vector.print %v : vector<3x4xf32>

  // CHECK-NEXT: ( ( 12, 13, -1, -1 ), ( 22, 23, -1, -1 ), ( -1, -1, -1, -1 ) )
  %w = vector.transfer_read %m[%c1, %c2], %pad : memref<?x?xf32>, vector<3x4xf32>
  vector.print %w : vector<3x4xf32>

  // CHECK-NEXT: ( ( 0, 10, 20 ), ( 1, 11, 21 ), ( 2, 12, 22 ), ( 3, 13, 23 ) )
  %t = vector.transfer_read %m[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x3xf32>
  vector.print %t : vector<4x3xf32>

  // A 2 x 3 write at [2, 2]: only its first row's first two elements fit.
  %ones = arith.constant dense<[[100.0, 101.0, 102.0], [110.0, 111.0, 112.0]]> : vector<2x3xf32>
  vector.transfer_write %ones, %m[%c2, %c2] : vector<2x3xf32>, memref<?x?xf32>
  // CHECK-NEXT: ( ( 0, 1, 2, 3 ), ( 10, 11, 12, 13 ), ( 20, 21, 100, 101 ) )
  %after = vector.transfer_read %m[%c0, %c0], %pad : memref<?x?xf32>, vector<3x4xf32>
  vector.print %after : vector<3x4xf32>

  // The 2 x 2 window at [%c1, %c1], through a subview of dynamic offset.
  %s = memref.subview %m[%c1, %c1] [2, 2] [1, 1] : memref<?x?xf32> to memref<2x2xf32, strided<[?, 1], offset: ?>>
  // CHECK-NEXT: ( ( 11, 12 ), ( 21, 100 ) )
  %window = vector.transfer_read %s[%c0, %c0], %pad : memref<2x2xf32, strided<[?, 1], offset: ?>>, vector<2x2xf32>
  vector.print %window : vector<2x2xf32>
  memref.dealloc %m : memref<?x?xf32>
  return
}
