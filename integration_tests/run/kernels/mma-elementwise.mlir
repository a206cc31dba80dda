// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=ARITH,MAX,MIN,F16
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=ARITH,MAX,MIN,F16
// RUN: %gpu-runner --check-bounds %s | FileCheck %s --check-prefixes=ARITH,MAX,MIN,F16
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// Element-wise ops and constants on warp matrices: each works element by
// element, whatever the lanes hold. X[i][j] = (16i + j - 100) / 2, as an
// f32 accumulator matrix; the CHECK lines are computed apart:
// ARITH = X * X + X * 2 (mulf, addf), MAX = maxf(X, 0) / 4 (maxf, divf),
// MIN = minf(X, 0), F16 = H + H with H = X / 8 in f16 (addf in f16). These
// are the element-wise ops upstream's NVVM lowering has, so the program
// runs on CUDA too; mma-elementwise-host.mlir has the others.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @elementwise(%x: memref<16x16xf32>, %h: memref<16x16xf16>, %out: memref<3x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %two = arith.constant 2.0 : f32
      %four = arith.constant 4.0 : f32
      %zero = arith.constant 0.0 : f32
      %mx = gpu.subgroup_mma_load_matrix %x[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %m2 = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf32, "COp">
      %m4 = gpu.subgroup_mma_constant_matrix %four : !gpu.mma_matrix<16x16xf32, "COp">
      %m0 = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">

      %sq = gpu.subgroup_mma_elementwise mulf %mx, %mx : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %twice = gpu.subgroup_mma_elementwise mulf %mx, %m2 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %arith = gpu.subgroup_mma_elementwise addf %sq, %twice : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %o0 = memref.subview %out[0, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
      gpu.subgroup_mma_store_matrix %arith, %o0[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, strided<[16, 1]>>

      %max = gpu.subgroup_mma_elementwise maxf %mx, %m0 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %quarter = gpu.subgroup_mma_elementwise divf %max, %m4 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %quarter, %out[%c1, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<3x16x16xf32>

      %min = gpu.subgroup_mma_elementwise minf %mx, %m0 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %min, %out[%c2, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<3x16x16xf32>

      %mh = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %hh = gpu.subgroup_mma_elementwise addf %mh, %mh : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %hh, %h[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

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
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %row = arith.muli %i, %c16 : index
        %e = arith.addi %row, %j : index
        %v = arith.subi %e, %c100 : index
        %vi = arith.index_cast %v : index to i32
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
    %out = gpu.alloc () : memref<3x16x16xf32>
    gpu.memcpy %x, %hx : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %h, %hh : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @kernels::@elementwise blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<16x16xf32>, %h : memref<16x16xf16>, %out : memref<3x16x16xf32>)
    %hout = memref.alloc() : memref<3x16x16xf32>
    gpu.memcpy %hout, %out : memref<3x16x16xf32>, memref<3x16x16xf32>

    // ARITH:      {{\[}}[2400, 2351.25, 2303, 2255.25, 2208, 2161.25, 2115, 2069.25, 2024, 1979.25, 1935, 1891.25, 1848, 1805.25, 1763, 1721.25],
    // ARITH-NEXT:  [1680, 1639.25, 1599, 1559.25, 1520, 1481.25, 1443, 1405.25, 1368, 1331.25, 1295, 1259.25, 1224, 1189.25, 1155, 1121.25],
    // ARITH-NEXT:  [1088, 1055.25, 1023, 991.25, 960, 929.25, 899, 869.25, 840, 811.25, 783, 755.25, 728, 701.25, 675, 649.25],
    // ARITH-NEXT:  [624, 599.25, 575, 551.25, 528, 505.25, 483, 461.25, 440, 419.25, 399, 379.25, 360, 341.25, 323, 305.25],
    // ARITH-NEXT:  [288, 271.25, 255, 239.25, 224, 209.25, 195, 181.25, 168, 155.25, 143, 131.25, 120, 109.25, 99, 89.25],
    // ARITH-NEXT:  [80, 71.25, 63, 55.25, 48, 41.25, 35, 29.25, 24, 19.25, 15, 11.25, 8, 5.25, 3, 1.25],
    // ARITH-NEXT:  [0, -0.75, -1, -0.75, 0, 1.25, 3, 5.25, 8, 11.25, 15, 19.25, 24, 29.25, 35, 41.25],
    // ARITH-NEXT:  [48, 55.25, 63, 71.25, 80, 89.25, 99, 109.25, 120, 131.25, 143, 155.25, 168, 181.25, 195, 209.25],
    // ARITH-NEXT:  [224, 239.25, 255, 271.25, 288, 305.25, 323, 341.25, 360, 379.25, 399, 419.25, 440, 461.25, 483, 505.25],
    // ARITH-NEXT:  [528, 551.25, 575, 599.25, 624, 649.25, 675, 701.25, 728, 755.25, 783, 811.25, 840, 869.25, 899, 929.25],
    // ARITH-NEXT:  [960, 991.25, 1023, 1055.25, 1088, 1121.25, 1155, 1189.25, 1224, 1259.25, 1295, 1331.25, 1368, 1405.25, 1443, 1481.25],
    // ARITH-NEXT:  [1520, 1559.25, 1599, 1639.25, 1680, 1721.25, 1763, 1805.25, 1848, 1891.25, 1935, 1979.25, 2024, 2069.25, 2115, 2161.25],
    // ARITH-NEXT:  [2208, 2255.25, 2303, 2351.25, 2400, 2449.25, 2499, 2549.25, 2600, 2651.25, 2703, 2755.25, 2808, 2861.25, 2915, 2969.25],
    // ARITH-NEXT:  [3024, 3079.25, 3135, 3191.25, 3248, 3305.25, 3363, 3421.25, 3480, 3539.25, 3599, 3659.25, 3720, 3781.25, 3843, 3905.25],
    // ARITH-NEXT:  [3968, 4031.25, 4095, 4159.25, 4224, 4289.25, 4355, 4421.25, 4488, 4555.25, 4623, 4691.25, 4760, 4829.25, 4899, 4969.25],
    // ARITH-NEXT:  [5040, 5111.25, 5183, 5255.25, 5328, 5401.25, 5475, 5549.25, 5624, 5699.25, 5775, 5851.25, 5928, 6005.25, 6083, 6161.25]]
    %r0 = memref.subview %hout[0, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
    %u0 = memref.cast %r0 : memref<16x16xf32, strided<[16, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    // MAX:      {{\[}}[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MAX-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MAX-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MAX-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MAX-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MAX-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MAX-NEXT:  [0, 0, 0, 0, 0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25, 1.375],
    // MAX-NEXT:  [1.5, 1.625, 1.75, 1.875, 2, 2.125, 2.25, 2.375, 2.5, 2.625, 2.75, 2.875, 3, 3.125, 3.25, 3.375],
    // MAX-NEXT:  [3.5, 3.625, 3.75, 3.875, 4, 4.125, 4.25, 4.375, 4.5, 4.625, 4.75, 4.875, 5, 5.125, 5.25, 5.375],
    // MAX-NEXT:  [5.5, 5.625, 5.75, 5.875, 6, 6.125, 6.25, 6.375, 6.5, 6.625, 6.75, 6.875, 7, 7.125, 7.25, 7.375],
    // MAX-NEXT:  [7.5, 7.625, 7.75, 7.875, 8, 8.125, 8.25, 8.375, 8.5, 8.625, 8.75, 8.875, 9, 9.125, 9.25, 9.375],
    // MAX-NEXT:  [9.5, 9.625, 9.75, 9.875, 10, 10.125, 10.25, 10.375, 10.5, 10.625, 10.75, 10.875, 11, 11.125, 11.25, 11.375],
    // MAX-NEXT:  [11.5, 11.625, 11.75, 11.875, 12, 12.125, 12.25, 12.375, 12.5, 12.625, 12.75, 12.875, 13, 13.125, 13.25, 13.375],
    // MAX-NEXT:  [13.5, 13.625, 13.75, 13.875, 14, 14.125, 14.25, 14.375, 14.5, 14.625, 14.75, 14.875, 15, 15.125, 15.25, 15.375],
    // MAX-NEXT:  [15.5, 15.625, 15.75, 15.875, 16, 16.125, 16.25, 16.375, 16.5, 16.625, 16.75, 16.875, 17, 17.125, 17.25, 17.375],
    // MAX-NEXT:  [17.5, 17.625, 17.75, 17.875, 18, 18.125, 18.25, 18.375, 18.5, 18.625, 18.75, 18.875, 19, 19.125, 19.25, 19.375]]
    %r1 = memref.subview %hout[1, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: 256>>
    %u1 = memref.cast %r1 : memref<16x16xf32, strided<[16, 1], offset: 256>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    // MIN:      {{\[}}[-50, -49.5, -49, -48.5, -48, -47.5, -47, -46.5, -46, -45.5, -45, -44.5, -44, -43.5, -43, -42.5],
    // MIN-NEXT:  [-42, -41.5, -41, -40.5, -40, -39.5, -39, -38.5, -38, -37.5, -37, -36.5, -36, -35.5, -35, -34.5],
    // MIN-NEXT:  [-34, -33.5, -33, -32.5, -32, -31.5, -31, -30.5, -30, -29.5, -29, -28.5, -28, -27.5, -27, -26.5],
    // MIN-NEXT:  [-26, -25.5, -25, -24.5, -24, -23.5, -23, -22.5, -22, -21.5, -21, -20.5, -20, -19.5, -19, -18.5],
    // MIN-NEXT:  [-18, -17.5, -17, -16.5, -16, -15.5, -15, -14.5, -14, -13.5, -13, -12.5, -12, -11.5, -11, -10.5],
    // MIN-NEXT:  [-10, -9.5, -9, -8.5, -8, -7.5, -7, -6.5, -6, -5.5, -5, -4.5, -4, -3.5, -3, -2.5],
    // MIN-NEXT:  [-2, -1.5, -1, -0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    // MIN-NEXT:  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
    %r2 = memref.subview %hout[2, 0, 0] [1, 16, 16] [1, 1, 1] : memref<3x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: 512>>
    %u2 = memref.cast %r2 : memref<16x16xf32, strided<[16, 1], offset: 512>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    // H + H, in f16, printed in f32
    %hh2 = memref.alloc() : memref<16x16xf16>
    gpu.memcpy %hh2, %h : memref<16x16xf16>, memref<16x16xf16>
    %p = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %hh2[%i, %j] : memref<16x16xf16>
        %w = arith.extf %v : f16 to f32
        memref.store %w, %p[%i, %j] : memref<16x16xf32>
      }
    }
    // F16:      {{\[}}[-12.5, -12.375, -12.25, -12.125, -12, -11.875, -11.75, -11.625, -11.5, -11.375, -11.25, -11.125, -11, -10.875, -10.75, -10.625],
    // F16-NEXT:  [-10.5, -10.375, -10.25, -10.125, -10, -9.875, -9.75, -9.625, -9.5, -9.375, -9.25, -9.125, -9, -8.875, -8.75, -8.625],
    // F16-NEXT:  [-8.5, -8.375, -8.25, -8.125, -8, -7.875, -7.75, -7.625, -7.5, -7.375, -7.25, -7.125, -7, -6.875, -6.75, -6.625],
    // F16-NEXT:  [-6.5, -6.375, -6.25, -6.125, -6, -5.875, -5.75, -5.625, -5.5, -5.375, -5.25, -5.125, -5, -4.875, -4.75, -4.625],
    // F16-NEXT:  [-4.5, -4.375, -4.25, -4.125, -4, -3.875, -3.75, -3.625, -3.5, -3.375, -3.25, -3.125, -3, -2.875, -2.75, -2.625],
    // F16-NEXT:  [-2.5, -2.375, -2.25, -2.125, -2, -1.875, -1.75, -1.625, -1.5, -1.375, -1.25, -1.125, -1, -0.875, -0.75, -0.625],
    // F16-NEXT:  [-0.5, -0.375, -0.25, -0.125, 0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25, 1.375],
    // F16-NEXT:  [1.5, 1.625, 1.75, 1.875, 2, 2.125, 2.25, 2.375, 2.5, 2.625, 2.75, 2.875, 3, 3.125, 3.25, 3.375],
    // F16-NEXT:  [3.5, 3.625, 3.75, 3.875, 4, 4.125, 4.25, 4.375, 4.5, 4.625, 4.75, 4.875, 5, 5.125, 5.25, 5.375],
    // F16-NEXT:  [5.5, 5.625, 5.75, 5.875, 6, 6.125, 6.25, 6.375, 6.5, 6.625, 6.75, 6.875, 7, 7.125, 7.25, 7.375],
    // F16-NEXT:  [7.5, 7.625, 7.75, 7.875, 8, 8.125, 8.25, 8.375, 8.5, 8.625, 8.75, 8.875, 9, 9.125, 9.25, 9.375],
    // F16-NEXT:  [9.5, 9.625, 9.75, 9.875, 10, 10.125, 10.25, 10.375, 10.5, 10.625, 10.75, 10.875, 11, 11.125, 11.25, 11.375],
    // F16-NEXT:  [11.5, 11.625, 11.75, 11.875, 12, 12.125, 12.25, 12.375, 12.5, 12.625, 12.75, 12.875, 13, 13.125, 13.25, 13.375],
    // F16-NEXT:  [13.5, 13.625, 13.75, 13.875, 14, 14.125, 14.25, 14.375, 14.5, 14.625, 14.75, 14.875, 15, 15.125, 15.25, 15.375],
    // F16-NEXT:  [15.5, 15.625, 15.75, 15.875, 16, 16.125, 16.25, 16.375, 16.5, 16.625, 16.75, 16.875, 17, 17.125, 17.25, 17.375],
    // F16-NEXT:  [17.5, 17.625, 17.75, 17.875, 18, 18.125, 18.25, 18.375, 18.5, 18.625, 18.75, 18.875, 19, 19.125, 19.25, 19.375]]
    %u3 = memref.cast %p : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%u3) : (memref<*xf32>) -> ()

    gpu.dealloc %x : memref<16x16xf32>
    gpu.dealloc %h : memref<16x16xf16>
    gpu.dealloc %out : memref<3x16x16xf32>
    return
  }
}
