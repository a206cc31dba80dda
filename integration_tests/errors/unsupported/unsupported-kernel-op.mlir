// A gpu op the host backend cannot run in a kernel is named, with what a
// kernel may use instead.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<4xf32>) kernel {
      // CHECK: unsupported-kernel-op.mlir:[[# @LINE + 1]]:17: error: 'gpu.alloc' is not supported in kernels on the host backend; kernels here may use the id and size ops, gpu.barrier, gpu.shuffle, gpu.rotate, gpu.subgroup_broadcast, gpu.all_reduce, gpu.subgroup_reduce, gpu.warp_execute_on_lane_0, the gpu.subgroup_mma_* ops, gpu.printf and gpu.dynamic_shared_memory
      %buffer = gpu.alloc () : memref<4xf32>
      %c0 = arith.constant 0 : index
      %x = memref.load %out[%c0] : memref<4xf32>
      memref.store %x, %buffer[%c0] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.dealloc %m : memref<4xf32>
    return
  }
}
