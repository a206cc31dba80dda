// RUN: %gpu-runner -O0 %s | FileCheck %s
// RUN: %gpu-runner -O1 %s | FileCheck %s
// RUN: %gpu-runner -O2 %s | FileCheck %s
// RUN: %gpu-runner -O3 %s | FileCheck %s

// LLVM's matrix intrinsics in host code, at every optimization level:
// matrices are flat vectors in column-major order, as clang's matrix types
// make them. Instruction selection has none of them; they run only because
// the LLVM pipeline lowers them first (LowerMatrixIntrinsics).

func.func @pointer(%m: memref<12xf32>) -> !llvm.ptr {
  %address = memref.extract_aligned_pointer_as_index %m : memref<12xf32> -> index
  %i = arith.index_cast %address : index to i64
  %p = llvm.inttoptr %i : i64 to !llvm.ptr
  return %p : !llvm.ptr
}

func.func @main() {
  // M = [[1, 2, 3], [4, 5, 6]], 2 x 3, its columns one after the other.
  %m = arith.constant dense<[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]> : vector<6xf32>

  // M^T, 3 x 2: its columns are M's rows.
  // CHECK: ( 1, 2, 3, 4, 5, 6 )
  %t = llvm.intr.matrix.transpose %m {rows = 2 : i32, columns = 3 : i32} : vector<6xf32> into vector<6xf32>
  vector.print %t : vector<6xf32>

  // M M^T = [[14, 32], [32, 77]].
  // CHECK-NEXT: ( 14, 32, 32, 77 )
  %p = llvm.intr.matrix.multiply %m, %t {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
  vector.print %p : vector<4xf32>

  // Integers too: M^T M, 3 x 3, of i32.
  // CHECK-NEXT: ( 17, 22, 27, 22, 29, 36, 27, 36, 45 )
  %mi = arith.constant dense<[1, 4, 2, 5, 3, 6]> : vector<6xi32>
  %ti = llvm.intr.matrix.transpose %mi {rows = 2 : i32, columns = 3 : i32} : vector<6xi32> into vector<6xi32>
  %q = llvm.intr.matrix.multiply %ti, %mi {lhs_rows = 3 : i32, lhs_columns = 2 : i32, rhs_columns = 3 : i32} : (vector<6xi32>, vector<6xi32>) -> vector<9xi32>
  vector.print %q : vector<9xi32>

  // A 2 x 3 matrix loaded from memory holding 0 .. 11, its columns 4
  // elements apart: (0, 1), (4, 5), (8, 9).
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %buffer = memref.alloc() : memref<12xf32>
  scf.for %i = %c0 to %c12 step %c1 {
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    memref.store %f, %buffer[%i] : memref<12xf32>
  }
  %bp = call @pointer(%buffer) : (memref<12xf32>) -> !llvm.ptr
  %four = arith.constant 4 : i64
  // CHECK-NEXT: ( 0, 1, 4, 5, 8, 9 )
  %l = llvm.intr.matrix.column.major.load %bp, <stride = %four> {isVolatile = false, rows = 2 : i32, columns = 3 : i32} : vector<6xf32> from !llvm.ptr stride i64
  vector.print %l : vector<6xf32>

  // M M^T stored with its columns 3 elements apart, over -1s.
  %minus = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %minus, %buffer[%i] : memref<12xf32>
  }
  %three = arith.constant 3 : i64
  llvm.intr.matrix.column.major.store %p, %bp, <stride = %three> {isVolatile = false, rows = 2 : i32, columns = 2 : i32} : vector<4xf32> to !llvm.ptr stride i64
  // CHECK-NEXT: ( 14, 32, -1, 32, 77, -1, -1, -1, -1, -1, -1, -1 )
  %all = vector.load %buffer[%c0] : memref<12xf32>, vector<12xf32>
  vector.print %all : vector<12xf32>
  memref.dealloc %buffer : memref<12xf32>
  return
}
