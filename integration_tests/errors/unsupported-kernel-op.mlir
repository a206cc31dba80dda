// A gpu op the host backend cannot run in a kernel is named, with what a
// kernel may use instead.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<1xindex>) kernel {
      // CHECK: unsupported-kernel-op.mlir:[[# @LINE + 1]]:12: error: 'gpu.cluster_id' is not supported in kernels on the host backend; kernels here may use the id and size ops, gpu.barrier, gpu.shuffle, gpu.rotate, gpu.subgroup_broadcast, gpu.all_reduce, gpu.subgroup_reduce, gpu.printf and gpu.dynamic_shared_memory
      %c = gpu.cluster_id x
      %c0 = arith.constant 0 : index
      memref.store %c, %out[%c0] : memref<1xindex>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<1xindex>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<1xindex>)
    gpu.dealloc %m : memref<1xindex>
    return
  }
}
