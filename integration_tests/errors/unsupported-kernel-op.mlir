// A gpu op the host backend cannot run in a kernel is named, with what a
// kernel may use instead.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<16x16xf16>) kernel {
      %f = arith.constant 1.0 : f16
      // CHECK: unsupported-kernel-op.mlir:[[# @LINE + 1]]:12: error: 'gpu.subgroup_mma_constant_matrix' is not supported in kernels on the host backend; kernels here may use the id and size ops, gpu.barrier, gpu.shuffle, gpu.rotate, gpu.subgroup_broadcast, gpu.all_reduce, gpu.subgroup_reduce, gpu.warp_execute_on_lane_0, gpu.printf and gpu.dynamic_shared_memory
      %m = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf16, "COp">
      %c0 = arith.constant 0 : index
      gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<16x16xf16>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<16x16xf16>)
    gpu.dealloc %m : memref<16x16xf16>
    return
  }
}
