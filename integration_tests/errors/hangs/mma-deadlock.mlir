// A matrix multiply-accumulate that some lanes of a subgroup never reach is
// a deadlock, reported with the lanes that left, never a hang: every lane
// must take part (CUDA C++ Programming Guide, Warp Matrix Functions).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @half(%a: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %ma = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %mb = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %mc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %lane = gpu.lane_id
      %low = arith.cmpi ult, %lane, %c16 : index
      scf.if %low {
        // CHECK: mma-deadlock.mlir:[[# @LINE + 1]]:15: error: gpu.subgroup_mma_compute: deadlock in kernel 'half', block (0, 0, 0): this matrix multiply-accumulate needs lanes 0-31 of subgroup 0, but lanes 16-31 (threads (16, 0, 0) to (31, 0, 0)) returned without reaching it
        %md = gpu.subgroup_mma_compute %ma, %mb, %mc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        gpu.subgroup_mma_store_matrix %md, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = gpu.alloc () : memref<16x16xf16>
    %c = gpu.alloc () : memref<16x16xf32>
    gpu.launch_func @kernels::@half blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %c : memref<16x16xf32>)
    gpu.dealloc %a : memref<16x16xf16>
    gpu.dealloc %c : memref<16x16xf32>
    return
  }
}
