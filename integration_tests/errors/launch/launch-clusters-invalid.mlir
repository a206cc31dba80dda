// Thread block clusters the CUDA driver refuses (cuLaunchKernelEx:
// CUDA_ERROR_INVALID_CLUSTER_SIZE) are refused at the launch, with the
// numbers. CUDA C++ Programming Guide, Thread Block Clusters: "The grid
// dimension must be a multiple of cluster size", and "a maximum of 8 thread
// blocks in a cluster is supported as a portable cluster size in CUDA".
// RUN: %expect-exit-1 %gpu-runner %s -e not_multiple 2>&1 | FileCheck %s --check-prefix=MULTIPLE
// RUN: %expect-exit-1 %gpu-runner %s -e inline_not_multiple 2>&1 | FileCheck %s --check-prefix=INLINE
// RUN: %expect-exit-1 %gpu-runner %s -e too_many_blocks 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: %expect-exit-1 %gpu-runner %s -e too_long 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: %expect-exit-1 %gpu-runner %s -e zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %expect-exit-1 %gpu-runner %s -e negative_async 2>&1 | FileCheck %s --check-prefix=NEGATIVE

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @not_multiple() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    // MULTIPLE: launch-clusters-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': grid size 3 in y is not a multiple of the cluster size 2: the grid must be made of whole clusters, as CUDA requires
    gpu.launch_func @kernels::@k clusters in (%c2, %c2, %c1) blocks in (%c4, %c3, %c1) threads in (%c1, %c1, %c1)
    return
  }

  func.func @inline_not_multiple() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    // INLINE: launch-clusters-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'inline_not_multiple_kernel': grid size 6 in x is not a multiple of the cluster size 4: the grid must be made of whole clusters, as CUDA requires
    gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c4, %scy = %c1, %scz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c6, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }

  func.func @too_many_blocks() {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    // BLOCKS: launch-clusters-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': a cluster of 4 x 2 x 2 = 16 blocks: a cluster has at most 8 blocks, CUDA's portable cluster size, which the host backend keeps so that programs stay portable
    gpu.launch_func @kernels::@k clusters in (%c4, %c2, %c2) blocks in (%c4, %c2, %c2) threads in (%c1, %c1, %c1)
    return
  }

  func.func @too_long() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    // LONG: launch-clusters-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': cluster size 16 in z: a cluster has at most 8 blocks, CUDA's portable cluster size, which the host backend keeps so that programs stay portable
    gpu.launch_func @kernels::@k clusters in (%c1, %c1, %c16) blocks in (%c1, %c1, %c16) threads in (%c1, %c1, %c1)
    return
  }

  func.func @zero() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // ZERO: launch-clusters-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': cluster size 0 in x: every dimension of a cluster must be at least 1
    gpu.launch_func @kernels::@k clusters in (%c0, %c1, %c1) blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }

  func.func @negative_async() {
    %c1 = arith.constant 1 : index
    %m2 = arith.constant -2 : index
    %t0 = gpu.wait async
    // NEGATIVE: launch-clusters-invalid.mlir:[[# @LINE + 1]]:10: error: gpu.launch_func: kernel 'k': cluster size -2 in y: every dimension of a cluster must be at least 1
    %t = gpu.launch_func async [%t0] @kernels::@k clusters in (%c1, %m2, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t]
    return
  }
}
