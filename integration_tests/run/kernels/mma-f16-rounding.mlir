// RUN: %gpu-runner %s | FileCheck %s
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// One m16n16k16 multiply-accumulate with f16 accumulators, A all 11 and B
// all 15: each element of D is 16 products of 165, 2640, which f16 holds.
// A tensor core keeps a compute's products and sums at a higher precision
// than its f16 result and rounds once; rounding each partial sum to f16
// (spaced 2 apart above 2048) gives 2636. A C of 0.25, below the spacing of
// the sums, is added before the one rounding: 2640.25 rounds to 2640.

// CHECK: [2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640,  2640]
// CHECK-NOT: 2636

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @product(%d: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %eleven = arith.constant 11.0 : f16
      %fifteen = arith.constant 15.0 : f16
      %quarter = arith.constant 0.25 : f16
      %a = gpu.subgroup_mma_constant_matrix %eleven : !gpu.mma_matrix<16x16xf16, "AOp">
      %b = gpu.subgroup_mma_constant_matrix %fifteen : !gpu.mma_matrix<16x16xf16, "BOp">
      %c = gpu.subgroup_mma_constant_matrix %quarter : !gpu.mma_matrix<16x16xf16, "COp">
      %r = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %r, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<16x16xf16>
    gpu.launch_func @kernels::@product blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<16x16xf16>)
    %h = memref.alloc () : memref<16x16xf16>
    gpu.memcpy %h, %d : memref<16x16xf16>, memref<16x16xf16>
    // Row 0, widened to f32 to print it.
    %row = memref.alloc () : memref<16xf32>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %h[%c0, %j] : memref<16x16xf16>
      %y = arith.extf %x : f16 to f32
      memref.store %y, %row[%j] : memref<16xf32>
    }
    %u = memref.cast %row : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %row : memref<16xf32>
    gpu.dealloc %d : memref<16x16xf16>
    memref.dealloc %h : memref<16x16xf16>
    return
  }
}
