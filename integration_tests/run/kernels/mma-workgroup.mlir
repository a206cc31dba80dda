// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// The usual staging of a tile in workgroup memory: the threads copy A
// there, wait at a barrier, and the subgroup loads its matrices from it,
// B as A transposed (element (k, j) read at [j][k]), so that D = A * A^T
// with a zero accumulator. A[i][j] = i - j; the CHECK lines are the plain
// product, computed apart.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @staged(%a: memref<16x16xf16>, %d: memref<16x16xf32>)
        workgroup(%ta: memref<16x16xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c16 : index
      %col = arith.remui %tid, %c16 : index
      %c2 = arith.constant 2 : index
      scf.for %r = %row to %c16 step %c2 {
        %v = memref.load %a[%r, %col] : memref<16x16xf16>
        memref.store %v, %ta[%r, %col] : memref<16x16xf16, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %A = gpu.subgroup_mma_load_matrix %ta[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %ta[%c0, %c0] {leadDimension = 16 : index, transpose} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %z = arith.constant 0.0 : f32
      %C = gpu.subgroup_mma_constant_matrix %z : !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %ha = memref.alloc() : memref<16x16xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %e = arith.subi %i, %j : index
        %ei = arith.index_cast %e : index to i32
        %ef = arith.sitofp %ei : i32 to f16
        memref.store %ef, %ha[%i, %j] : memref<16x16xf16>
      }
    }
    %a = gpu.alloc () : memref<16x16xf16>
    %d = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %a, %ha : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @kernels::@staged blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %d : memref<16x16xf32>)
    %hd = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hd, %d : memref<16x16xf32>, memref<16x16xf32>
    %u = memref.cast %hd : memref<16x16xf32> to memref<*xf32>
    // CHECK:      {{\[}}[1240, 1120, 1000, 880, 760, 640, 520, 400, 280, 160, 40, -80, -200, -320, -440, -560],
    // CHECK-NEXT:  [1120, 1016, 912, 808, 704, 600, 496, 392, 288, 184, 80, -24, -128, -232, -336, -440],
    // CHECK-NEXT:  [1000, 912, 824, 736, 648, 560, 472, 384, 296, 208, 120, 32, -56, -144, -232, -320],
    // CHECK-NEXT:  [880, 808, 736, 664, 592, 520, 448, 376, 304, 232, 160, 88, 16, -56, -128, -200],
    // CHECK-NEXT:  [760, 704, 648, 592, 536, 480, 424, 368, 312, 256, 200, 144, 88, 32, -24, -80],
    // CHECK-NEXT:  [640, 600, 560, 520, 480, 440, 400, 360, 320, 280, 240, 200, 160, 120, 80, 40],
    // CHECK-NEXT:  [520, 496, 472, 448, 424, 400, 376, 352, 328, 304, 280, 256, 232, 208, 184, 160],
    // CHECK-NEXT:  [400, 392, 384, 376, 368, 360, 352, 344, 336, 328, 320, 312, 304, 296, 288, 280],
    // CHECK-NEXT:  [280, 288, 296, 304, 312, 320, 328, 336, 344, 352, 360, 368, 376, 384, 392, 400],
    // CHECK-NEXT:  [160, 184, 208, 232, 256, 280, 304, 328, 352, 376, 400, 424, 448, 472, 496, 520],
    // CHECK-NEXT:  [40, 80, 120, 160, 200, 240, 280, 320, 360, 400, 440, 480, 520, 560, 600, 640],
    // CHECK-NEXT:  [-80, -24, 32, 88, 144, 200, 256, 312, 368, 424, 480, 536, 592, 648, 704, 760],
    // CHECK-NEXT:  [-200, -128, -56, 16, 88, 160, 232, 304, 376, 448, 520, 592, 664, 736, 808, 880],
    // CHECK-NEXT:  [-320, -232, -144, -56, 32, 120, 208, 296, 384, 472, 560, 648, 736, 824, 912, 1000],
    // CHECK-NEXT:  [-440, -336, -232, -128, -24, 80, 184, 288, 392, 496, 600, 704, 808, 912, 1016, 1120],
    // CHECK-NEXT:  [-560, -440, -320, -200, -80, 40, 160, 280, 400, 520, 640, 760, 880, 1000, 1120, 1240]]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %a : memref<16x16xf16>
    gpu.dealloc %d : memref<16x16xf32>
    return
  }
}
