// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// REQUIRES: host

// The element-wise ops on warp matrices that upstream's NVVM lowering does
// not have (cuda/mma-refused.mlir), which the host backend runs: subf,
// negatef and extf on floats, addi, muli, subi, divs, divu and negates on
// i32 accumulators. X[i][j] = (16i + j - 100) / 2 in f32, H = X / 8 in f16,
// I[i][j] = 16i + j - 100 in i32; the CHECK lines are computed apart:
// -(X - 2); extf(H); I * 7 - (I + 7); I / 7 signed (rounding toward zero);
// -I / 7 unsigned, where -I below 0 is read as 2^32 - I.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @elementwise(%x: memref<16x16xf32>, %h: memref<16x16xf16>, %i: memref<16x16xi32>,
                          %f: memref<2x16x16xf32>, %n: memref<3x16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %two = arith.constant 2.0 : f32
      %seven = arith.constant 7 : i32
      %mx = gpu.subgroup_mma_load_matrix %x[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %m2 = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf32, "COp">
      %sub = gpu.subgroup_mma_elementwise subf %mx, %m2 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %neg = gpu.subgroup_mma_elementwise negatef %sub : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %neg, %f[%c0, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<2x16x16xf32>
      %mh = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %ext = gpu.subgroup_mma_elementwise extf %mh : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %ext, %f[%c1, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<2x16x16xf32>

      %mi = gpu.subgroup_mma_load_matrix %i[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %m7 = gpu.subgroup_mma_constant_matrix %seven : !gpu.mma_matrix<16x16xi32, "COp">
      %times = gpu.subgroup_mma_elementwise muli %mi, %m7 : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %plus = gpu.subgroup_mma_elementwise addi %mi, %m7 : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %diff = gpu.subgroup_mma_elementwise subi %times, %plus : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %diff, %n[%c0, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<3x16x16xi32>
      %quot = gpu.subgroup_mma_elementwise divs %mi, %m7 : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %quot, %n[%c1, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<3x16x16xi32>
      %negi = gpu.subgroup_mma_elementwise negates %mi : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %uquot = gpu.subgroup_mma_elementwise divu %negi, %m7 : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %uquot, %n[%c2, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<3x16x16xi32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c100 = arith.constant 100 : index
    %half = arith.constant 0.5 : f32
    %eighth = arith.constant 0.125 : f32
    %hx = memref.alloc() : memref<16x16xf32>
    %hh = memref.alloc() : memref<16x16xf16>
    %hi = memref.alloc() : memref<16x16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %row = arith.muli %i, %c16 : index
        %e = arith.addi %row, %j : index
        %v = arith.subi %e, %c100 : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %hi[%i, %j] : memref<16x16xi32>
        %vf = arith.sitofp %vi : i32 to f32
        %x = arith.mulf %vf, %half : f32
        memref.store %x, %hx[%i, %j] : memref<16x16xf32>
        %x8 = arith.mulf %x, %eighth : f32
        %h = arith.truncf %x8 : f32 to f16
        memref.store %h, %hh[%i, %j] : memref<16x16xf16>
      }
    }
    %x = gpu.alloc () : memref<16x16xf32>
    %h = gpu.alloc () : memref<16x16xf16>
    %i = gpu.alloc () : memref<16x16xi32>
    %f = gpu.alloc () : memref<2x16x16xf32>
    %n = gpu.alloc () : memref<3x16x16xi32>
    gpu.memcpy %x, %hx : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %h, %hh : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %i, %hi : memref<16x16xi32>, memref<16x16xi32>
    gpu.launch_func @kernels::@elementwise blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<16x16xf32>, %h : memref<16x16xf16>, %i : memref<16x16xi32>, %f : memref<2x16x16xf32>, %n : memref<3x16x16xi32>)
    %hf = memref.alloc() : memref<2x16x16xf32>
    %hn = memref.alloc() : memref<3x16x16xi32>
    gpu.memcpy %hf, %f : memref<2x16x16xf32>, memref<2x16x16xf32>
    gpu.memcpy %hn, %n : memref<3x16x16xi32>, memref<3x16x16xi32>

    // CHECK:      {{\[}}[52, 51.5, 51, 50.5, 50, 49.5, 49, 48.5, 48, 47.5, 47, 46.5, 46, 45.5, 45, 44.5],
    // CHECK-NEXT:  [44, 43.5, 43, 42.5, 42, 41.5, 41, 40.5, 40, 39.5, 39, 38.5, 38, 37.5, 37, 36.5],
    // CHECK-NEXT:  [36, 35.5, 35, 34.5, 34, 33.5, 33, 32.5, 32, 31.5, 31, 30.5, 30, 29.5, 29, 28.5],
    // CHECK-NEXT:  [28, 27.5, 27, 26.5, 26, 25.5, 25, 24.5, 24, 23.5, 23, 22.5, 22, 21.5, 21, 20.5],
    // CHECK-NEXT:  [20, 19.5, 19, 18.5, 18, 17.5, 17, 16.5, 16, 15.5, 15, 14.5, 14, 13.5, 13, 12.5],
    // CHECK-NEXT:  [12, 11.5, 11, 10.5, 10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5, 6, 5.5, 5, 4.5],
    // CHECK-NEXT:  [4, 3.5, 3, 2.5, 2, 1.5, 1, 0.5, -0, -0.5, -1, -1.5, -2, -2.5, -3, -3.5],
    // CHECK-NEXT:  [-4, -4.5, -5, -5.5, -6, -6.5, -7, -7.5, -8, -8.5, -9, -9.5, -10, -10.5, -11, -11.5],
    // CHECK-NEXT:  [-12, -12.5, -13, -13.5, -14, -14.5, -15, -15.5, -16, -16.5, -17, -17.5, -18, -18.5, -19, -19.5],
    // CHECK-NEXT:  [-20, -20.5, -21, -21.5, -22, -22.5, -23, -23.5, -24, -24.5, -25, -25.5, -26, -26.5, -27, -27.5],
    // CHECK-NEXT:  [-28, -28.5, -29, -29.5, -30, -30.5, -31, -31.5, -32, -32.5, -33, -33.5, -34, -34.5, -35, -35.5],
    // CHECK-NEXT:  [-36, -36.5, -37, -37.5, -38, -38.5, -39, -39.5, -40, -40.5, -41, -41.5, -42, -42.5, -43, -43.5],
    // CHECK-NEXT:  [-44, -44.5, -45, -45.5, -46, -46.5, -47, -47.5, -48, -48.5, -49, -49.5, -50, -50.5, -51, -51.5],
    // CHECK-NEXT:  [-52, -52.5, -53, -53.5, -54, -54.5, -55, -55.5, -56, -56.5, -57, -57.5, -58, -58.5, -59, -59.5],
    // CHECK-NEXT:  [-60, -60.5, -61, -61.5, -62, -62.5, -63, -63.5, -64, -64.5, -65, -65.5, -66, -66.5, -67, -67.5],
    // CHECK-NEXT:  [-68, -68.5, -69, -69.5, -70, -70.5, -71, -71.5, -72, -72.5, -73, -73.5, -74, -74.5, -75, -75.5]]
    %f0 = memref.subview %hf[0, 0, 0] [1, 16, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
    %uf0 = memref.cast %f0 : memref<16x16xf32, strided<[16, 1]>> to memref<*xf32>
    call @printMemrefF32(%uf0) : (memref<*xf32>) -> ()
    // CHECK:      {{\[}}[-6.25, -6.1875, -6.125, -6.0625, -6, -5.9375, -5.875, -5.8125, -5.75, -5.6875, -5.625, -5.5625, -5.5, -5.4375, -5.375, -5.3125],
    // CHECK-NEXT:  [-5.25, -5.1875, -5.125, -5.0625, -5, -4.9375, -4.875, -4.8125, -4.75, -4.6875, -4.625, -4.5625, -4.5, -4.4375, -4.375, -4.3125],
    // CHECK-NEXT:  [-4.25, -4.1875, -4.125, -4.0625, -4, -3.9375, -3.875, -3.8125, -3.75, -3.6875, -3.625, -3.5625, -3.5, -3.4375, -3.375, -3.3125],
    // CHECK-NEXT:  [-3.25, -3.1875, -3.125, -3.0625, -3, -2.9375, -2.875, -2.8125, -2.75, -2.6875, -2.625, -2.5625, -2.5, -2.4375, -2.375, -2.3125],
    // CHECK-NEXT:  [-2.25, -2.1875, -2.125, -2.0625, -2, -1.9375, -1.875, -1.8125, -1.75, -1.6875, -1.625, -1.5625, -1.5, -1.4375, -1.375, -1.3125],
    // CHECK-NEXT:  [-1.25, -1.1875, -1.125, -1.0625, -1, -0.9375, -0.875, -0.8125, -0.75, -0.6875, -0.625, -0.5625, -0.5, -0.4375, -0.375, -0.3125],
    // CHECK-NEXT:  [-0.25, -0.1875, -0.125, -0.0625, 0, 0.0625, 0.125, 0.1875, 0.25, 0.3125, 0.375, 0.4375, 0.5, 0.5625, 0.625, 0.6875],
    // CHECK-NEXT:  [0.75, 0.8125, 0.875, 0.9375, 1, 1.0625, 1.125, 1.1875, 1.25, 1.3125, 1.375, 1.4375, 1.5, 1.5625, 1.625, 1.6875],
    // CHECK-NEXT:  [1.75, 1.8125, 1.875, 1.9375, 2, 2.0625, 2.125, 2.1875, 2.25, 2.3125, 2.375, 2.4375, 2.5, 2.5625, 2.625, 2.6875],
    // CHECK-NEXT:  [2.75, 2.8125, 2.875, 2.9375, 3, 3.0625, 3.125, 3.1875, 3.25, 3.3125, 3.375, 3.4375, 3.5, 3.5625, 3.625, 3.6875],
    // CHECK-NEXT:  [3.75, 3.8125, 3.875, 3.9375, 4, 4.0625, 4.125, 4.1875, 4.25, 4.3125, 4.375, 4.4375, 4.5, 4.5625, 4.625, 4.6875],
    // CHECK-NEXT:  [4.75, 4.8125, 4.875, 4.9375, 5, 5.0625, 5.125, 5.1875, 5.25, 5.3125, 5.375, 5.4375, 5.5, 5.5625, 5.625, 5.6875],
    // CHECK-NEXT:  [5.75, 5.8125, 5.875, 5.9375, 6, 6.0625, 6.125, 6.1875, 6.25, 6.3125, 6.375, 6.4375, 6.5, 6.5625, 6.625, 6.6875],
    // CHECK-NEXT:  [6.75, 6.8125, 6.875, 6.9375, 7, 7.0625, 7.125, 7.1875, 7.25, 7.3125, 7.375, 7.4375, 7.5, 7.5625, 7.625, 7.6875],
    // CHECK-NEXT:  [7.75, 7.8125, 7.875, 7.9375, 8, 8.0625, 8.125, 8.1875, 8.25, 8.3125, 8.375, 8.4375, 8.5, 8.5625, 8.625, 8.6875],
    // CHECK-NEXT:  [8.75, 8.8125, 8.875, 8.9375, 9, 9.0625, 9.125, 9.1875, 9.25, 9.3125, 9.375, 9.4375, 9.5, 9.5625, 9.625, 9.6875]]
    %f1 = memref.subview %hf[1, 0, 0] [1, 16, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: 256>>
    %uf1 = memref.cast %f1 : memref<16x16xf32, strided<[16, 1], offset: 256>> to memref<*xf32>
    call @printMemrefF32(%uf1) : (memref<*xf32>) -> ()
    // CHECK:      {{\[}}[-607, -601, -595, -589, -583, -577, -571, -565, -559, -553, -547, -541, -535, -529, -523, -517],
    // CHECK-NEXT:  [-511, -505, -499, -493, -487, -481, -475, -469, -463, -457, -451, -445, -439, -433, -427, -421],
    // CHECK-NEXT:  [-415, -409, -403, -397, -391, -385, -379, -373, -367, -361, -355, -349, -343, -337, -331, -325],
    // CHECK-NEXT:  [-319, -313, -307, -301, -295, -289, -283, -277, -271, -265, -259, -253, -247, -241, -235, -229],
    // CHECK-NEXT:  [-223, -217, -211, -205, -199, -193, -187, -181, -175, -169, -163, -157, -151, -145, -139, -133],
    // CHECK-NEXT:  [-127, -121, -115, -109, -103, -97, -91, -85, -79, -73, -67, -61, -55, -49, -43, -37],
    // CHECK-NEXT:  [-31, -25, -19, -13, -7, -1, 5, 11, 17, 23, 29, 35, 41, 47, 53, 59],
    // CHECK-NEXT:  [65, 71, 77, 83, 89, 95, 101, 107, 113, 119, 125, 131, 137, 143, 149, 155],
    // CHECK-NEXT:  [161, 167, 173, 179, 185, 191, 197, 203, 209, 215, 221, 227, 233, 239, 245, 251],
    // CHECK-NEXT:  [257, 263, 269, 275, 281, 287, 293, 299, 305, 311, 317, 323, 329, 335, 341, 347],
    // CHECK-NEXT:  [353, 359, 365, 371, 377, 383, 389, 395, 401, 407, 413, 419, 425, 431, 437, 443],
    // CHECK-NEXT:  [449, 455, 461, 467, 473, 479, 485, 491, 497, 503, 509, 515, 521, 527, 533, 539],
    // CHECK-NEXT:  [545, 551, 557, 563, 569, 575, 581, 587, 593, 599, 605, 611, 617, 623, 629, 635],
    // CHECK-NEXT:  [641, 647, 653, 659, 665, 671, 677, 683, 689, 695, 701, 707, 713, 719, 725, 731],
    // CHECK-NEXT:  [737, 743, 749, 755, 761, 767, 773, 779, 785, 791, 797, 803, 809, 815, 821, 827],
    // CHECK-NEXT:  [833, 839, 845, 851, 857, 863, 869, 875, 881, 887, 893, 899, 905, 911, 917, 923]]
    %n0 = memref.subview %hn[0, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xi32> to memref<16x16xi32, strided<[16, 1]>>
    %un0 = memref.cast %n0 : memref<16x16xi32, strided<[16, 1]>> to memref<*xi32>
    call @printMemrefI32(%un0) : (memref<*xi32>) -> ()
    // CHECK:      {{\[}}[-14, -14, -14, -13, -13, -13, -13, -13, -13, -13, -12, -12, -12, -12, -12, -12],
    // CHECK-NEXT:  [-12, -11, -11, -11, -11, -11, -11, -11, -10, -10, -10, -10, -10, -10, -10, -9],
    // CHECK-NEXT:  [-9, -9, -9, -9, -9, -9, -8, -8, -8, -8, -8, -8, -8, -7, -7, -7],
    // CHECK-NEXT:  [-7, -7, -7, -7, -6, -6, -6, -6, -6, -6, -6, -5, -5, -5, -5, -5],
    // CHECK-NEXT:  [-5, -5, -4, -4, -4, -4, -4, -4, -4, -3, -3, -3, -3, -3, -3, -3],
    // CHECK-NEXT:  [-2, -2, -2, -2, -2, -2, -2, -1, -1, -1, -1, -1, -1, -1, 0, 0],
    // CHECK-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
    // CHECK-NEXT:  [1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3],
    // CHECK-NEXT:  [4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6],
    // CHECK-NEXT:  [6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8],
    // CHECK-NEXT:  [8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10],
    // CHECK-NEXT:  [10, 11, 11, 11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 13],
    // CHECK-NEXT:  [13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14, 14, 14, 15, 15, 15],
    // CHECK-NEXT:  [15, 15, 15, 15, 16, 16, 16, 16, 16, 16, 16, 17, 17, 17, 17, 17],
    // CHECK-NEXT:  [17, 17, 18, 18, 18, 18, 18, 18, 18, 19, 19, 19, 19, 19, 19, 19],
    // CHECK-NEXT:  [20, 20, 20, 20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 22, 22]]
    %n1 = memref.subview %hn[1, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xi32> to memref<16x16xi32, strided<[16, 1], offset: 256>>
    %un1 = memref.cast %n1 : memref<16x16xi32, strided<[16, 1], offset: 256>> to memref<*xi32>
    call @printMemrefI32(%un1) : (memref<*xi32>) -> ()
    // CHECK:      {{\[}}[14, 14, 14, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 12, 12, 12],
    // CHECK-NEXT:  [12, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10, 10, 10, 10, 9],
    // CHECK-NEXT:  [9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7],
    // CHECK-NEXT:  [7, 7, 7, 7, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5],
    // CHECK-NEXT:  [5, 5, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3],
    // CHECK-NEXT:  [2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0],
    // CHECK-NEXT:  [0, 0, 0, 0, 0, 613566756, 613566756, 613566756, 613566756, 613566755, 613566755, 613566755, 613566755, 613566755, 613566755, 613566755],
    // CHECK-NEXT:  [613566754, 613566754, 613566754, 613566754, 613566754, 613566754, 613566754, 613566753, 613566753, 613566753, 613566753, 613566753, 613566753, 613566753, 613566752, 613566752],
    // CHECK-NEXT:  [613566752, 613566752, 613566752, 613566752, 613566752, 613566751, 613566751, 613566751, 613566751, 613566751, 613566751, 613566751, 613566750, 613566750, 613566750, 613566750],
    // CHECK-NEXT:  [613566750, 613566750, 613566750, 613566749, 613566749, 613566749, 613566749, 613566749, 613566749, 613566749, 613566748, 613566748, 613566748, 613566748, 613566748, 613566748],
    // CHECK-NEXT:  [613566748, 613566747, 613566747, 613566747, 613566747, 613566747, 613566747, 613566747, 613566746, 613566746, 613566746, 613566746, 613566746, 613566746, 613566746, 613566745],
    // CHECK-NEXT:  [613566745, 613566745, 613566745, 613566745, 613566745, 613566745, 613566744, 613566744, 613566744, 613566744, 613566744, 613566744, 613566744, 613566743, 613566743, 613566743],
    // CHECK-NEXT:  [613566743, 613566743, 613566743, 613566743, 613566742, 613566742, 613566742, 613566742, 613566742, 613566742, 613566742, 613566741, 613566741, 613566741, 613566741, 613566741],
    // CHECK-NEXT:  [613566741, 613566741, 613566740, 613566740, 613566740, 613566740, 613566740, 613566740, 613566740, 613566739, 613566739, 613566739, 613566739, 613566739, 613566739, 613566739],
    // CHECK-NEXT:  [613566738, 613566738, 613566738, 613566738, 613566738, 613566738, 613566738, 613566737, 613566737, 613566737, 613566737, 613566737, 613566737, 613566737, 613566736, 613566736],
    // CHECK-NEXT:  [613566736, 613566736, 613566736, 613566736, 613566736, 613566735, 613566735, 613566735, 613566735, 613566735, 613566735, 613566735, 613566734, 613566734, 613566734, 613566734]]
    %n2 = memref.subview %hn[2, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xi32> to memref<16x16xi32, strided<[16, 1], offset: 512>>
    %un2 = memref.cast %n2 : memref<16x16xi32, strided<[16, 1], offset: 512>> to memref<*xi32>
    call @printMemrefI32(%un2) : (memref<*xi32>) -> ()

    gpu.dealloc %x : memref<16x16xf32>
    gpu.dealloc %h : memref<16x16xf16>
    gpu.dealloc %i : memref<16x16xi32>
    gpu.dealloc %f : memref<2x16x16xf32>
    gpu.dealloc %n : memref<3x16x16xi32>
    return
  }
}
