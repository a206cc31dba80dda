// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// Upstream's NVVM and ROCDL lowerings have no pattern for these two ops
// (cuda/mma-refused.mlir).
// REQUIRES: host

// gpu.subgroup_mma_extract_thread_local and insert_thread_local index the
// part of a matrix a lane holds, whose layout is opaque: "if the size of the
// subgroup is S, then subgroup_mma_extract_thread_local at each index in
// [0, (M * N) / S) will have the entire matrix extracted across the
// subgroup" (the ops' documentation). So each lane reads its 256 / 32 = 8
// elements, and the subgroup's sum of them is the sum of the matrix; each
// lane doubles its 8 elements in place, and the matrix stored is doubled.
// X[i][j] = (16i + j - 100) / 2, whose sum is 3520.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @thread_local(%x: memref<16x16xf32>, %sum: memref<1xf32>, %doubled: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %two = arith.constant 2.0 : f32
      %m = gpu.subgroup_mma_load_matrix %x[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %own = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %zero) -> (f32) {
        %v = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
        %t = arith.addf %s, %v : f32
        scf.yield %t : f32
      }
      %all = gpu.subgroup_reduce add %own : (f32) -> f32
      %lane = gpu.lane_id
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        memref.store %all, %sum[%c0] : memref<1xf32>
      }
      %d = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %m) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %v = gpu.subgroup_mma_extract_thread_local %acc[%i] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
        %w = arith.mulf %v, %two : f32
        %next = gpu.subgroup_mma_insert_thread_local %w, %acc[%i] : f32, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %d, %doubled[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
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
    %hx = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %row = arith.muli %i, %c16 : index
        %e = arith.addi %row, %j : index
        %v = arith.subi %e, %c100 : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        %x = arith.mulf %vf, %half : f32
        memref.store %x, %hx[%i, %j] : memref<16x16xf32>
      }
    }
    %x = gpu.alloc () : memref<16x16xf32>
    %sum = gpu.alloc () : memref<1xf32>
    %doubled = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %x, %hx : memref<16x16xf32>, memref<16x16xf32>
    gpu.launch_func @kernels::@thread_local blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<16x16xf32>, %sum : memref<1xf32>, %doubled : memref<16x16xf32>)
    %hsum = memref.alloc() : memref<1xf32>
    gpu.memcpy %hsum, %sum : memref<1xf32>, memref<1xf32>
    // CHECK: [3520]
    %us = memref.cast %hsum : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    %hd = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hd, %doubled : memref<16x16xf32>, memref<16x16xf32>
    // CHECK:      {{\[}}[-100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85],
    // CHECK-NEXT:  [-84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69],
    // CHECK-NEXT:  [-68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53],
    // CHECK-NEXT:  [-52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37],
    // CHECK-NEXT:  [-36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21],
    // CHECK-NEXT:  [-20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5],
    // CHECK-NEXT:  [-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    // CHECK-NEXT:  [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27],
    // CHECK-NEXT:  [28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43],
    // CHECK-NEXT:  [44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59],
    // CHECK-NEXT:  [60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75],
    // CHECK-NEXT:  [76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91],
    // CHECK-NEXT:  [92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107],
    // CHECK-NEXT:  [108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123],
    // CHECK-NEXT:  [124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139],
    // CHECK-NEXT:  [140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155]]
    %ud = memref.cast %hd : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
    gpu.dealloc %x : memref<16x16xf32>
    gpu.dealloc %sum : memref<1xf32>
    gpu.dealloc %doubled : memref<16x16xf32>
    return
  }
}
