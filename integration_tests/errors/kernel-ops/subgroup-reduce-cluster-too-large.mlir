// A gpu.subgroup_reduce cluster must fit in a subgroup (32 lanes here): 16
// lanes 4 apart span 64. The error says so at the op.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<32xi32>) kernel {
      %lane = gpu.lane_id
      %v = arith.index_cast %lane : index to i32
      // CHECK: subgroup-reduce-cluster-too-large.mlir:[[# @LINE + 1]]:12: error: a cluster of 16 lanes 4 apart does not fit in a subgroup of 32 lanes
      %s = gpu.subgroup_reduce add %v cluster(size = 16, stride = 4) : (i32) -> i32
      memref.store %s, %out[%lane] : memref<32xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<32xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>)
    gpu.dealloc %m : memref<32xi32>
    return
  }
}
