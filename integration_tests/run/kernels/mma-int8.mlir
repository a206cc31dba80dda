// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// Warp matrix multiply-accumulate of 8-bit integers into i32, m16n16k16,
// the same bytes read as si8 and as ui8, as the matrix types say (A and B
// have one element type, as in PTX's wmma.mma): a byte above 127 is
// negative in the first product and 128 to 255 in the second. The CHECK
// lines are the plain matrix products, computed apart, with the bytes
// A[i][k] = ((i + 2k) mod 5 - 2) * 50 and B[k][j] = ((3k + j) mod 7) * 40
// (mod 256), C[i][j] = (2i + 3j) mod 11 - 5.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_si8(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>, %d: memref<16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %md, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.return
    }
    gpu.func @matmul_ui8(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>, %d: memref<16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xui8, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xui8, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<16x16xui8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %md, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %c50 = arith.constant 50 : index
    %ha = memref.alloc() : memref<16x16xi8>
    %hb = memref.alloc() : memref<16x16xi8>
    %hc = memref.alloc() : memref<16x16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        // A[i][j] = ((i + 2j) mod 5 - 2) * 50
        %j2 = arith.muli %j, %c2 : index
        %sa = arith.addi %i, %j2 : index
        %ma = arith.remui %sa, %c5 : index
        %ma32 = arith.index_cast %ma : index to i32
        %c2_32 = arith.index_cast %c2 : index to i32
        %da = arith.subi %ma32, %c2_32 : i32
        %c50_32 = arith.index_cast %c50 : index to i32
        %va = arith.muli %da, %c50_32 : i32
        %a8 = arith.trunci %va : i32 to i8
        memref.store %a8, %ha[%i, %j] : memref<16x16xi8>
        // B[i][j] = ((3i + j) mod 7) * 40
        %i3 = arith.muli %i, %c3 : index
        %sb = arith.addi %i3, %j : index
        %mb = arith.remui %sb, %c7 : index
        %vb = arith.muli %mb, %c40 : index
        %vb32 = arith.index_cast %vb : index to i32
        %b8 = arith.trunci %vb32 : i32 to i8
        memref.store %b8, %hb[%i, %j] : memref<16x16xi8>
        // C[i][j] = (2i + 3j) mod 11 - 5
        %i2 = arith.muli %i, %c2 : index
        %j3 = arith.muli %j, %c3 : index
        %sc = arith.addi %i2, %j3 : index
        %mc = arith.remui %sc, %c11 : index
        %mc32 = arith.index_cast %mc : index to i32
        %c5_32 = arith.index_cast %c5 : index to i32
        %vc = arith.subi %mc32, %c5_32 : i32
        memref.store %vc, %hc[%i, %j] : memref<16x16xi32>
      }
    }
    %a = gpu.alloc () : memref<16x16xi8>
    %b = gpu.alloc () : memref<16x16xi8>
    %c = gpu.alloc () : memref<16x16xi32>
    %d = gpu.alloc () : memref<16x16xi32>
    %e = gpu.alloc () : memref<16x16xi32>
    gpu.memcpy %a, %ha : memref<16x16xi8>, memref<16x16xi8>
    gpu.memcpy %b, %hb : memref<16x16xi8>, memref<16x16xi8>
    gpu.memcpy %c, %hc : memref<16x16xi32>, memref<16x16xi32>
    gpu.launch_func @kernels::@matmul_si8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xi8>, %b : memref<16x16xi8>, %c : memref<16x16xi32>, %d : memref<16x16xi32>)
    gpu.launch_func @kernels::@matmul_ui8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xi8>, %b : memref<16x16xi8>, %c : memref<16x16xi32>, %e : memref<16x16xi32>)
    %hd = memref.alloc() : memref<16x16xi32>
    gpu.memcpy %hd, %d : memref<16x16xi32>, memref<16x16xi32>
    // si8
    // CHECK:      {{\[}}[-30405, 398, 33601, 30804, 17596, -21201, -37998, -30395, 397, 33600, 30803, 17595, -21202, -37999, -30396, 396],
    // CHECK-NEXT:  [-23203, -25200, -17997, 17195, 27998, 27201, -9596, -23204, -25201, -17998, 17205, 27997, 27200, -9597, -23205, -25202],
    // CHECK-NEXT:  [7999, -26798, -39595, -30403, 4400, 41603, 42795, 7998, -26799, -39596, -30404, 4399, 41602, 42805, 7997, -26800],
    // CHECK-NEXT:  [29201, 19604, -13204, -24001, -23198, -11995, 27197, 29200, 19603, -13205, -24002, -23199, -11996, 27196, 29199, 19602],
    // CHECK-NEXT:  [16403, 31995, 37198, 6401, -26796, -35604, -22401, 16402, 32005, 37197, 6400, -26797, -35605, -22402, 16401, 32004],
    // CHECK-NEXT:  [-30395, 397, 33600, 30803, 17595, -21202, -37999, -30396, 396, 33599, 30802, 17605, -21203, -38000, -30397, 395],
    // CHECK-NEXT:  [-23204, -25201, -17998, 17205, 27997, 27200, -9597, -23205, -25202, -17999, 17204, 27996, 27199, -9598, -23195, -25203],
    // CHECK-NEXT:  [7998, -26799, -39596, -30404, 4399, 41602, 42805, 7997, -26800, -39597, -30405, 4398, 41601, 42804, 7996, -26801],
    // CHECK-NEXT:  [29200, 19603, -13205, -24002, -23199, -11996, 27196, 29199, 19602, -13195, -24003, -23200, -11997, 27195, 29198, 19601],
    // CHECK-NEXT:  [16402, 32005, 37197, 6400, -26797, -35605, -22402, 16401, 32004, 37196, 6399, -26798, -35595, -22403, 16400, 32003],
    // CHECK-NEXT:  [-30396, 396, 33599, 30802, 17605, -21203, -38000, -30397, 395, 33598, 30801, 17604, -21204, -38001, -30398, 405],
    // CHECK-NEXT:  [-23205, -25202, -17999, 17204, 27996, 27199, -9598, -23195, -25203, -18000, 17203, 27995, 27198, -9599, -23196, -25204],
    // CHECK-NEXT:  [7997, -26800, -39597, -30405, 4398, 41601, 42804, 7996, -26801, -39598, -30395, 4397, 41600, 42803, 7995, -26802],
    // CHECK-NEXT:  [29199, 19602, -13195, -24003, -23200, -11997, 27195, 29198, 19601, -13196, -24004, -23201, -11998, 27205, 29197, 19600],
    // CHECK-NEXT:  [16401, 32004, 37196, 6399, -26798, -35595, -22403, 16400, 32003, 37195, 6398, -26799, -35596, -22404, 16399, 32002],
    // CHECK-NEXT:  [-30397, 395, 33598, 30801, 17604, -21204, -38001, -30398, 405, 33597, 30800, 17603, -21205, -38002, -30399, 404]]
    %u = memref.cast %hd : memref<16x16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %he = memref.alloc() : memref<16x16xi32>
    gpu.memcpy %he, %e : memref<16x16xi32>, memref<16x16xi32>
    // ui8
    // CHECK:      {{\[}}[161595, 187278, 240961, 250964, 217276, 183599, 179602, 161605, 187277, 240960, 250963, 217275, 183598, 179601, 161604, 187276],
    // CHECK-NEXT:  [161117, 159120, 186803, 242475, 240478, 252481, 220804, 161116, 159119, 186802, 242485, 240477, 252480, 220803, 161115, 159118],
    // CHECK-NEXT:  [192319, 152402, 142165, 161597, 181040, 228483, 232235, 192318, 152401, 142164, 161596, 181039, 228482, 232245, 192317, 152400],
    // CHECK-NEXT:  [213521, 219284, 181356, 173119, 150882, 172325, 221757, 213520, 219283, 181355, 173118, 150881, 172324, 221756, 213519, 219282],
    // CHECK-NEXT:  [193043, 244475, 252238, 216321, 152404, 146156, 169599, 193042, 244485, 252237, 216320, 152403, 146155, 169598, 193041, 244484],
    // CHECK-NEXT:  [161605, 187277, 240960, 250963, 217275, 183598, 179601, 161604, 187276, 240959, 250962, 217285, 183597, 179600, 161603, 187275],
    // CHECK-NEXT:  [161116, 159119, 186802, 242485, 240477, 252480, 220803, 161115, 159118, 186801, 242484, 240476, 252479, 220802, 161125, 159117],
    // CHECK-NEXT:  [192318, 152401, 142164, 161596, 181039, 228482, 232245, 192317, 152400, 142163, 161595, 181038, 228481, 232244, 192316, 152399],
    // CHECK-NEXT:  [213520, 219283, 181355, 173118, 150881, 172324, 221756, 213519, 219282, 181365, 173117, 150880, 172323, 221755, 213518, 219281],
    // CHECK-NEXT:  [193042, 244485, 252237, 216320, 152403, 146155, 169598, 193041, 244484, 252236, 216319, 152402, 146165, 169597, 193040, 244483],
    // CHECK-NEXT:  [161604, 187276, 240959, 250962, 217285, 183597, 179600, 161603, 187275, 240958, 250961, 217284, 183596, 179599, 161602, 187285],
    // CHECK-NEXT:  [161115, 159118, 186801, 242484, 240476, 252479, 220802, 161125, 159117, 186800, 242483, 240475, 252478, 220801, 161124, 159116],
    // CHECK-NEXT:  [192317, 152400, 142163, 161595, 181038, 228481, 232244, 192316, 152399, 142162, 161605, 181037, 228480, 232243, 192315, 152398],
    // CHECK-NEXT:  [213519, 219282, 181365, 173117, 150880, 172323, 221755, 213518, 219281, 181364, 173116, 150879, 172322, 221765, 213517, 219280],
    // CHECK-NEXT:  [193041, 244484, 252236, 216319, 152402, 146165, 169597, 193040, 244483, 252235, 216318, 152401, 146164, 169596, 193039, 244482],
    // CHECK-NEXT:  [161603, 187275, 240958, 250961, 217284, 183596, 179599, 161602, 187285, 240957, 250960, 217283, 183595, 179598, 161601, 187284]]
    %ue = memref.cast %he : memref<16x16xi32> to memref<*xi32>
    call @printMemrefI32(%ue) : (memref<*xi32>) -> ()
    gpu.dealloc %a : memref<16x16xi8>
    gpu.dealloc %b : memref<16x16xi8>
    gpu.dealloc %c : memref<16x16xi32>
    gpu.dealloc %d : memref<16x16xi32>
    gpu.dealloc %e : memref<16x16xi32>
    return
  }
}
