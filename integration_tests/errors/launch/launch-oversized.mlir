// Grids and blocks larger than CUDA allows, one dimension at a time.
// RUN: %expect-exit-1 %gpu-runner %s -e grid_y 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: %expect-exit-1 %gpu-runner %s -e block_x 2>&1 | FileCheck %s --check-prefix=BLOCKX
// RUN: %expect-exit-1 %gpu-runner %s -e block_z 2>&1 | FileCheck %s --check-prefix=BLOCKZ

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @grid_y() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 65536 : index
    // GRID: launch-oversized.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': grid size 65536 in y: a grid has at most 2147483647 blocks in x and 65535 in y and z, CUDA's limits, which the host backend keeps so that programs stay portable
    gpu.launch_func @kernels::@k blocks in (%c1, %big, %c1) threads in (%c1, %c1, %c1)
    return
  }

  func.func @block_x() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 2048 : index
    // BLOCKX: launch-oversized.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': block size 2048 in x: a block has at most 1024 threads in x and y and 64 in z
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%big, %c1, %c1)
    return
  }

  func.func @block_z() {
    %c1 = arith.constant 1 : index
    %c65 = arith.constant 65 : index
    // BLOCKZ: launch-oversized.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': block size 65 in z: a block has at most 1024 threads in x and y and 64 in z
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c65)
    return
  }
}
