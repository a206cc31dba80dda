// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// The other shapes of NVIDIA's warp matrix operations (CUDA C++ Programming
// Guide, Warp Matrix Functions, Element Types and Matrix Sizes), each by
// one subgroup of 32 lanes: m8n8k4 in f64, m32n8k16 in f16 with an f32
// accumulator and m8n32k16 in f16 with an f16 accumulator. The f64
// operands are binary fractions, so the products are exact in f64; the
// CHECK lines are the plain matrix products, computed apart. With
// P(p, q, r, s)[i][j] = (p * i + q * j) mod r - s:
// f64: A = P(1, 2, 5, 2) + 0.25, B = P(3, 1, 7, 3) / 2, C = P(2, 3, 11, 5) / 8;
// f16: A = P(1, 2, 5, 2), B = P(3, 1, 7, 3), C = P(2, 3, 11, 5).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @m8n8k4_f64(%a: memref<8x4xf64>, %b: memref<4x8xf64>, %c: memref<8x8xf64>, %d: memref<8x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
      gpu.subgroup_mma_store_matrix %md, %d[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
      gpu.return
    }

    gpu.func @m32n8k16_f32(%a: memref<32x16xf16>, %b: memref<16x8xf16>, %c: memref<32x8xf32>, %d: memref<32x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<32x16xf16> -> !gpu.mma_matrix<32x16xf16, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf16> -> !gpu.mma_matrix<16x8xf16, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<32x8xf32> -> !gpu.mma_matrix<32x8xf32, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<32x16xf16, "AOp">, !gpu.mma_matrix<16x8xf16, "BOp"> -> !gpu.mma_matrix<32x8xf32, "COp">
      gpu.subgroup_mma_store_matrix %md, %d[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<32x8xf32, "COp">, memref<32x8xf32>
      gpu.return
    }

    gpu.func @m8n32k16_f16(%a: memref<8x16xf16>, %b: memref<16x32xf16>, %c: memref<8x32xf16>, %d: memref<8x32xf16>) kernel {
      %c0 = arith.constant 0 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<8x16xf16> -> !gpu.mma_matrix<8x16xf16, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 32 : index} : memref<16x32xf16> -> !gpu.mma_matrix<16x32xf16, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 32 : index} : memref<8x32xf16> -> !gpu.mma_matrix<8x32xf16, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<8x16xf16, "AOp">, !gpu.mma_matrix<16x32xf16, "BOp"> -> !gpu.mma_matrix<8x32xf16, "COp">
      gpu.subgroup_mma_store_matrix %md, %d[%c0, %c0] {leadDimension = 32 : index} : !gpu.mma_matrix<8x32xf16, "COp">, memref<8x32xf16>
      gpu.return
    }
  }

  func.func private @printMemrefF64(memref<*xf64>)
  func.func private @printMemrefF32(memref<*xf32>)

  // m[i][j] = ((p * i + q * j) mod r - s) * scale + shift
  func.func @fill(%m: memref<?x?xf64>, %p: index, %q: index, %r: index, %s: index, %scale: f64, %shift: f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %m, %c0 : memref<?x?xf64>
    %cols = memref.dim %m, %c1 : memref<?x?xf64>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %pi = arith.muli %p, %i : index
        %qj = arith.muli %q, %j : index
        %sum = arith.addi %pi, %qj : index
        %mod = arith.remui %sum, %r : index
        %v = arith.subi %mod, %s : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f64
        %scaled = arith.mulf %vf, %scale : f64
        %shifted = arith.addf %scaled, %shift : f64
        memref.store %shifted, %m[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // The same values in f16 or f32, through a copy in f64.
  func.func @fill_f16(%m: memref<?x?xf16>, %p: index, %q: index, %r: index, %s: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    %zero = arith.constant 0.0 : f64
    %rows = memref.dim %m, %c0 : memref<?x?xf16>
    %cols = memref.dim %m, %c1 : memref<?x?xf16>
    %wide = memref.alloc(%rows, %cols) : memref<?x?xf64>
    call @fill(%wide, %p, %q, %r, %s, %one, %zero) : (memref<?x?xf64>, index, index, index, index, f64, f64) -> ()
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %v = memref.load %wide[%i, %j] : memref<?x?xf64>
        %h = arith.truncf %v : f64 to f16
        memref.store %h, %m[%i, %j] : memref<?x?xf16>
      }
    }
    memref.dealloc %wide : memref<?x?xf64>
    return
  }

  func.func @fill_f32(%m: memref<?x?xf32>, %p: index, %q: index, %r: index, %s: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : f64
    %zero = arith.constant 0.0 : f64
    %rows = memref.dim %m, %c0 : memref<?x?xf32>
    %cols = memref.dim %m, %c1 : memref<?x?xf32>
    %wide = memref.alloc(%rows, %cols) : memref<?x?xf64>
    call @fill(%wide, %p, %q, %r, %s, %one, %zero) : (memref<?x?xf64>, index, index, index, index, f64, f64) -> ()
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %v = memref.load %wide[%i, %j] : memref<?x?xf64>
        %h = arith.truncf %v : f64 to f32
        memref.store %h, %m[%i, %j] : memref<?x?xf32>
      }
    }
    memref.dealloc %wide : memref<?x?xf64>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f64
    %half = arith.constant 0.5 : f64
    %eighth = arith.constant 0.125 : f64
    %quarter = arith.constant 0.25 : f64
    %zero = arith.constant 0.0 : f64

    // m8n8k4, f64
    %ha = memref.alloc() : memref<8x4xf64>
    %hb = memref.alloc() : memref<4x8xf64>
    %hc = memref.alloc() : memref<8x8xf64>
    %ha_ = memref.cast %ha : memref<8x4xf64> to memref<?x?xf64>
    %hb_ = memref.cast %hb : memref<4x8xf64> to memref<?x?xf64>
    %hc_ = memref.cast %hc : memref<8x8xf64> to memref<?x?xf64>
    call @fill(%ha_, %c1, %c2, %c5, %c2, %one, %quarter) : (memref<?x?xf64>, index, index, index, index, f64, f64) -> ()
    call @fill(%hb_, %c3, %c1, %c7, %c3, %half, %zero) : (memref<?x?xf64>, index, index, index, index, f64, f64) -> ()
    call @fill(%hc_, %c2, %c3, %c11, %c5, %eighth, %zero) : (memref<?x?xf64>, index, index, index, index, f64, f64) -> ()
    %a = gpu.alloc () : memref<8x4xf64>
    %b = gpu.alloc () : memref<4x8xf64>
    %c = gpu.alloc () : memref<8x8xf64>
    %d = gpu.alloc () : memref<8x8xf64>
    gpu.memcpy %a, %ha : memref<8x4xf64>, memref<8x4xf64>
    gpu.memcpy %b, %hb : memref<4x8xf64>, memref<4x8xf64>
    gpu.memcpy %c, %hc : memref<8x8xf64>, memref<8x8xf64>
    gpu.launch_func @kernels::@m8n8k4_f64 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<8x4xf64>, %b : memref<4x8xf64>, %c : memref<8x8xf64>, %d : memref<8x8xf64>)
    %hd = memref.alloc() : memref<8x8xf64>
    gpu.memcpy %hd, %d : memref<8x8xf64>, memref<8x8xf64>
    // CHECK:      {{\[}}[5.75, -1.75, -1.375, -1, -2.875, 0.125, 0.5, 7],
    // CHECK-NEXT:  [-2, 4, 3.875, 2.375, -2.125, -3.125, -3.25, -2.125],
    // CHECK-NEXT:  [-2.25, 2.25, 4.125, 4.625, -1.375, -3.875, -3.375, -2.375],
    // CHECK-NEXT:  [-2.5, -2, -2, -0.625, 6.875, 0.375, 0.375, -2.625],
    // CHECK-NEXT:  [-0.25, -5.125, -4.25, -3.375, 0.125, 5.75, 6.625, -0.375],
    // CHECK-NEXT:  [7, -1.875, -1.5, -1.125, -3, 0, 0.375, 6.875],
    // CHECK-NEXT:  [-2.125, 3.875, 3.75, 3.625, -2.25, -3.25, -3.375, -2.25],
    // CHECK-NEXT:  [-2.375, 2.125, 4, 4.5, -1.5, -4, -2.125, -2.5]]
    %ud = memref.cast %hd : memref<8x8xf64> to memref<*xf64>
    call @printMemrefF64(%ud) : (memref<*xf64>) -> ()

    // m32n8k16, f16 with an f32 accumulator
    %ha1 = memref.alloc() : memref<32x16xf16>
    %hb1 = memref.alloc() : memref<16x8xf16>
    %hc1 = memref.alloc() : memref<32x8xf32>
    %ha1_ = memref.cast %ha1 : memref<32x16xf16> to memref<?x?xf16>
    %hb1_ = memref.cast %hb1 : memref<16x8xf16> to memref<?x?xf16>
    %hc1_ = memref.cast %hc1 : memref<32x8xf32> to memref<?x?xf32>
    call @fill_f16(%ha1_, %c1, %c2, %c5, %c2) : (memref<?x?xf16>, index, index, index, index) -> ()
    call @fill_f16(%hb1_, %c3, %c1, %c7, %c3) : (memref<?x?xf16>, index, index, index, index) -> ()
    call @fill_f32(%hc1_, %c2, %c3, %c11, %c5) : (memref<?x?xf32>, index, index, index, index) -> ()
    %a1 = gpu.alloc () : memref<32x16xf16>
    %b1 = gpu.alloc () : memref<16x8xf16>
    %c1m = gpu.alloc () : memref<32x8xf32>
    %d1 = gpu.alloc () : memref<32x8xf32>
    gpu.memcpy %a1, %ha1 : memref<32x16xf16>, memref<32x16xf16>
    gpu.memcpy %b1, %hb1 : memref<16x8xf16>, memref<16x8xf16>
    gpu.memcpy %c1m, %hc1 : memref<32x8xf32>, memref<32x8xf32>
    gpu.launch_func @kernels::@m32n8k16_f32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a1 : memref<32x16xf16>, %b1 : memref<16x8xf16>, %c1m : memref<32x8xf32>, %d1 : memref<32x8xf32>)
    %hd1 = memref.alloc() : memref<32x8xf32>
    gpu.memcpy %hd1, %d1 : memref<32x8xf32>, memref<32x8xf32>
    // CHECK:      {{\[}}[5, -15, -21, -13, -2, 20, 21, 15],
    // CHECK-NEXT:  [14, 16, -3, -19, -17, -8, 15, 13],
    // CHECK-NEXT:  [3, 27, 30, 1, -17, -21, -22, 2],
    // CHECK-NEXT:  [-13, -2, 12, 16, 13, -4, -18, -14],
    // CHECK-NEXT:  [-14, -27, -15, 11, 23, 17, 1, -15],
    // CHECK-NEXT:  [15, -16, -22, -14, -3, 19, 20, 14],
    // CHECK-NEXT:  [13, 15, -4, -9, -18, -9, 14, 12],
    // CHECK-NEXT:  [2, 26, 29, 0, -18, -22, -12, 1],
    // CHECK-NEXT:  [-14, -3, 11, 15, 12, -5, -19, -15],
    // CHECK-NEXT:  [-15, -17, -16, 10, 22, 16, 0, -16],
    // CHECK-NEXT:  [14, -17, -23, -15, 7, 18, 19, 13],
    // CHECK-NEXT:  [12, 14, -5, -10, -19, -10, 13, 22],
    // CHECK-NEXT:  [1, 25, 28, -1, -19, -23, -13, 0],
    // CHECK-NEXT:  [-15, -4, 21, 14, 11, -6, -20, -16],
    // CHECK-NEXT:  [-16, -18, -17, 9, 21, 26, -1, -17],
    // CHECK-NEXT:  [13, -18, -24, -16, 6, 17, 18, 12],
    // CHECK-NEXT:  [22, 13, -6, -11, -20, -11, 12, 21],
    // CHECK-NEXT:  [0, 24, 27, 9, -20, -24, -14, -1],
    // CHECK-NEXT:  [-16, -5, 20, 13, 10, -7, -10, -17],
    // CHECK-NEXT:  [-17, -19, -18, 8, 20, 25, -2, -18],
    // CHECK-NEXT:  [12, -8, -25, -17, 5, 16, 17, 11],
    // CHECK-NEXT:  [21, 12, -7, -12, -10, -12, 11, 20],
    // CHECK-NEXT:  [-1, 23, 26, 8, -21, -25, -15, 9],
    // CHECK-NEXT:  [-17, -6, 19, 12, 9, -8, -11, -18],
    // CHECK-NEXT:  [-18, -20, -8, 7, 19, 24, -3, -19],
    // CHECK-NEXT:  [11, -9, -26, -18, 4, 26, 16, 10],
    // CHECK-NEXT:  [20, 11, -8, -13, -11, -13, 10, 19],
    // CHECK-NEXT:  [9, 22, 25, 7, -22, -26, -16, 8],
    // CHECK-NEXT:  [-18, -7, 18, 22, 8, -9, -12, -19],
    // CHECK-NEXT:  [-19, -21, -9, 6, 18, 23, 7, -20],
    // CHECK-NEXT:  [10, -10, -27, -19, 3, 25, 15, 9],
    // CHECK-NEXT:  [19, 21, -9, -14, -12, -14, 9, 18]]
    %ud1 = memref.cast %hd1 : memref<32x8xf32> to memref<*xf32>
    call @printMemrefF32(%ud1) : (memref<*xf32>) -> ()

    // m8n32k16, f16 with an f16 accumulator
    %ha2 = memref.alloc() : memref<8x16xf16>
    %hb2 = memref.alloc() : memref<16x32xf16>
    %hc2 = memref.alloc() : memref<8x32xf16>
    %ha2_ = memref.cast %ha2 : memref<8x16xf16> to memref<?x?xf16>
    %hb2_ = memref.cast %hb2 : memref<16x32xf16> to memref<?x?xf16>
    %hc2_ = memref.cast %hc2 : memref<8x32xf16> to memref<?x?xf16>
    call @fill_f16(%ha2_, %c1, %c2, %c5, %c2) : (memref<?x?xf16>, index, index, index, index) -> ()
    call @fill_f16(%hb2_, %c3, %c1, %c7, %c3) : (memref<?x?xf16>, index, index, index, index) -> ()
    call @fill_f16(%hc2_, %c2, %c3, %c11, %c5) : (memref<?x?xf16>, index, index, index, index) -> ()
    %a2 = gpu.alloc () : memref<8x16xf16>
    %b2 = gpu.alloc () : memref<16x32xf16>
    %c2m = gpu.alloc () : memref<8x32xf16>
    %d2 = gpu.alloc () : memref<8x32xf16>
    gpu.memcpy %a2, %ha2 : memref<8x16xf16>, memref<8x16xf16>
    gpu.memcpy %b2, %hb2 : memref<16x32xf16>, memref<16x32xf16>
    gpu.memcpy %c2m, %hc2 : memref<8x32xf16>, memref<8x32xf16>
    gpu.launch_func @kernels::@m8n32k16_f16 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a2 : memref<8x16xf16>, %b2 : memref<16x32xf16>, %c2m : memref<8x32xf16>, %d2 : memref<8x32xf16>)
    %hd2 = memref.alloc() : memref<8x32xf16>
    gpu.memcpy %hd2, %d2 : memref<8x32xf16>, memref<8x32xf16>
    %pd2 = memref.alloc() : memref<8x32xf32>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %h = memref.load %hd2[%i, %j] : memref<8x32xf16>
        %v = arith.extf %h : f16 to f32
        memref.store %v, %pd2[%i, %j] : memref<8x32xf32>
      }
    }
    // CHECK:      {{\[}}[5, -15, -21, -13, -2, 20, 21, 15, -16, -22, -14, -3, 19, 20, 14, -17, -23, -15, 7, 18, 19, 13, -18, -24, -16, 6, 17, 18, 12, -8, -25, -17],
    // CHECK-NEXT:  [14, 16, -3, -19, -17, -8, 15, 13, 15, -4, -9, -18, -9, 14, 12, 14, -5, -10, -19, -10, 13, 22, 13, -6, -11, -20, -11, 12, 21, 12, -7, -12],
    // CHECK-NEXT:  [3, 27, 30, 1, -17, -21, -22, 2, 26, 29, 0, -18, -22, -12, 1, 25, 28, -1, -19, -23, -13, 0, 24, 27, 9, -20, -24, -14, -1, 23, 26, 8],
    // CHECK-NEXT:  [-13, -2, 12, 16, 13, -4, -18, -14, -3, 11, 15, 12, -5, -19, -15, -4, 21, 14, 11, -6, -20, -16, -5, 20, 13, 10, -7, -10, -17, -6, 19, 12],
    // CHECK-NEXT:  [-14, -27, -15, 11, 23, 17, 1, -15, -17, -16, 10, 22, 16, 0, -16, -18, -17, 9, 21, 26, -1, -17, -19, -18, 8, 20, 25, -2, -18, -20, -8, 7],
    // CHECK-NEXT:  [15, -16, -22, -14, -3, 19, 20, 14, -17, -23, -15, 7, 18, 19, 13, -18, -24, -16, 6, 17, 18, 12, -8, -25, -17, 5, 16, 17, 11, -9, -26, -18],
    // CHECK-NEXT:  [13, 15, -4, -9, -18, -9, 14, 12, 14, -5, -10, -19, -10, 13, 22, 13, -6, -11, -20, -11, 12, 21, 12, -7, -12, -10, -12, 11, 20, 11, -8, -13],
    // CHECK-NEXT:  [2, 26, 29, 0, -18, -22, -12, 1, 25, 28, -1, -19, -23, -13, 0, 24, 27, 9, -20, -24, -14, -1, 23, 26, 8, -21, -25, -15, 9, 22, 25, 7]]
    %ud2 = memref.cast %pd2 : memref<8x32xf32> to memref<*xf32>
    call @printMemrefF32(%ud2) : (memref<*xf32>) -> ()

    gpu.dealloc %a : memref<8x4xf64>
    gpu.dealloc %b : memref<4x8xf64>
    gpu.dealloc %c : memref<8x8xf64>
    gpu.dealloc %d : memref<8x8xf64>
    gpu.dealloc %a1 : memref<32x16xf16>
    gpu.dealloc %b1 : memref<16x8xf16>
    gpu.dealloc %c1m : memref<32x8xf32>
    gpu.dealloc %d1 : memref<32x8xf32>
    gpu.dealloc %a2 : memref<8x16xf16>
    gpu.dealloc %b2 : memref<16x32xf16>
    gpu.dealloc %c2m : memref<8x32xf16>
    gpu.dealloc %d2 : memref<8x32xf16>
    return
  }
}
