// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// Transposed loads and stores, a leading dimension wider than the matrix
// and a matrix that starts inside its memref: A is kept transposed at rows
// 8 to 23, columns 16 to 31 of a 32x48 buffer whose other elements are 100
// (any of them read would show), and loaded with `transpose`, which reads
// element (i, k) at [8 + k][16 + i], k * 48 + i elements after the first;
// the product D = A * B + C is stored with `transpose` too, so that the
// memory holds D's transpose, which the CHECK lines give (computed apart).
// The compute op's a_transpose says A was loaded transposed. With
// P(p, q, r, s)[i][j] = (p * i + q * j) mod r - s: A = P(1, 2, 5, 2),
// B = P(3, 1, 7, 3), C = P(2, 3, 11, 5), in f16 with an f32 accumulator.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transposed(%at: memref<32x48xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>, %dt: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %ma = gpu.subgroup_mma_load_matrix %at[%c8, %c16] {leadDimension = 48 : index, transpose} : memref<32x48xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc {a_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %md, %dt[%c0, %c0] {leadDimension = 16 : index, transpose} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // (p * i + q * j) mod r - s
  func.func @value(%i: index, %j: index, %p: index, %q: index, %r: index, %s: index) -> f32 {
    %pi = arith.muli %p, %i : index
    %qj = arith.muli %q, %j : index
    %sum = arith.addi %pi, %qj : index
    %mod = arith.remui %sum, %r : index
    %v = arith.subi %mod, %s : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    return %vf : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %junk = arith.constant 100.0 : f16
    %hat = memref.alloc() : memref<32x48xf16>
    %hb = memref.alloc() : memref<16x16xf16>
    %hc = memref.alloc() : memref<16x16xf32>
    scf.for %r = %c0 to %c32 step %c1 {
      scf.for %q = %c0 to %c48 step %c1 {
        memref.store %junk, %hat[%r, %q] : memref<32x48xf16>
      }
    }
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        // A[i][j] at [8 + j][16 + i]
        %a = func.call @value(%i, %j, %c1, %c2, %c5, %c2) : (index, index, index, index, index, index) -> f32
        %ah = arith.truncf %a : f32 to f16
        %row = arith.addi %j, %c8 : index
        %col = arith.addi %i, %c16 : index
        memref.store %ah, %hat[%row, %col] : memref<32x48xf16>
        %b = func.call @value(%i, %j, %c3, %c1, %c7, %c3) : (index, index, index, index, index, index) -> f32
        %bh = arith.truncf %b : f32 to f16
        memref.store %bh, %hb[%i, %j] : memref<16x16xf16>
        %c = func.call @value(%i, %j, %c2, %c3, %c11, %c5) : (index, index, index, index, index, index) -> f32
        memref.store %c, %hc[%i, %j] : memref<16x16xf32>
      }
    }
    %at = gpu.alloc () : memref<32x48xf16>
    %b = gpu.alloc () : memref<16x16xf16>
    %c = gpu.alloc () : memref<16x16xf32>
    %dt = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %at, %hat : memref<32x48xf16>, memref<32x48xf16>
    gpu.memcpy %b, %hb : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %c, %hc : memref<16x16xf32>, memref<16x16xf32>
    gpu.launch_func @kernels::@transposed blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%at : memref<32x48xf16>, %b : memref<16x16xf16>, %c : memref<16x16xf32>, %dt : memref<16x16xf32>)
    %hdt = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hdt, %dt : memref<16x16xf32>, memref<16x16xf32>
    // CHECK:      {{\[}}[5, 14, 3, -13, -14, 15, 13, 2, -14, -15, 14, 12, 1, -15, -16, 13],
    // CHECK-NEXT:  [-15, 16, 27, -2, -27, -16, 15, 26, -3, -17, -17, 14, 25, -4, -18, -18],
    // CHECK-NEXT:  [-21, -3, 30, 12, -15, -22, -4, 29, 11, -16, -23, -5, 28, 21, -17, -24],
    // CHECK-NEXT:  [-13, -19, 1, 16, 11, -14, -9, 0, 15, 10, -15, -10, -1, 14, 9, -16],
    // CHECK-NEXT:  [-2, -17, -17, 13, 23, -3, -18, -18, 12, 22, 7, -19, -19, 11, 21, 6],
    // CHECK-NEXT:  [20, -8, -21, -4, 17, 19, -9, -22, -5, 16, 18, -10, -23, -6, 26, 17],
    // CHECK-NEXT:  [21, 15, -22, -18, 1, 20, 14, -12, -19, 0, 19, 13, -13, -20, -1, 18],
    // CHECK-NEXT:  [15, 13, 2, -14, -15, 14, 12, 1, -15, -16, 13, 22, 0, -16, -17, 12],
    // CHECK-NEXT:  [-16, 15, 26, -3, -17, -17, 14, 25, -4, -18, -18, 13, 24, -5, -19, -8],
    // CHECK-NEXT:  [-22, -4, 29, 11, -16, -23, -5, 28, 21, -17, -24, -6, 27, 20, -18, -25],
    // CHECK-NEXT:  [-14, -9, 0, 15, 10, -15, -10, -1, 14, 9, -16, -11, 9, 13, 8, -17],
    // CHECK-NEXT:  [-3, -18, -18, 12, 22, 7, -19, -19, 11, 21, 6, -20, -20, 10, 20, 5],
    // CHECK-NEXT:  [19, -9, -22, -5, 16, 18, -10, -23, -6, 26, 17, -11, -24, -7, 25, 16],
    // CHECK-NEXT:  [20, 14, -12, -19, 0, 19, 13, -13, -20, -1, 18, 12, -14, -10, -2, 17],
    // CHECK-NEXT:  [14, 12, 1, -15, -16, 13, 22, 0, -16, -17, 12, 21, -1, -17, -18, 11],
    // CHECK-NEXT:  [-17, 14, 25, -4, -18, -18, 13, 24, -5, -19, -8, 12, 23, -6, -20, -9]]
    %u = memref.cast %hdt : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %at : memref<32x48xf16>
    gpu.dealloc %b : memref<16x16xf16>
    gpu.dealloc %c : memref<16x16xf32>
    gpu.dealloc %dt : memref<16x16xf32>
    return
  }
}
