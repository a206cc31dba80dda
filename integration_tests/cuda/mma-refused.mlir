// The mma ops upstream's NVVM lowering cannot take are refused by name for
// NVIDIA GPUs, before anything is compiled: it has no pattern for
// extract_thread_local and insert_thread_local, and stops the process on
// the element-wise ops other than addf, mulf, divf, maxf and minf
// (lowering/refuse-target-ops-invalid.mlir has them all). The host backend
// runs them (run/kernels/mma-thread-local.mlir).
// REQUIRES: cuda-runner
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @first(%m: memref<16x16xf32>, %out: memref<32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      // CHECK: mma-refused.mlir:[[# @LINE + 1]]:12: error: 'gpu.subgroup_mma_extract_thread_local' cannot be compiled for NVIDIA GPUs: upstream's NVVM lowering has no pattern for it; gpu-runner-host runs it
      %v = gpu.subgroup_mma_extract_thread_local %a[%c0] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
      %lane = gpu.lane_id
      memref.store %v, %out[%lane] : memref<32xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<16x16xf32>
    %out = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@first blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%m : memref<16x16xf32>, %out : memref<32xf32>)
    gpu.dealloc %m : memref<16x16xf32>
    gpu.dealloc %out : memref<32xf32>
    return
  }
}
