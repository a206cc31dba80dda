// Negative launch sizes are reported as they are, not wrapped around into
// huge unsigned ones.
// RUN: %expect-exit-1 %gpu-runner %s -e negative_grid 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: %expect-exit-1 %gpu-runner %s -e negative_block 2>&1 | FileCheck %s --check-prefix=BLOCK

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @negative_grid() {
    %c1 = arith.constant 1 : index
    %m1 = arith.constant -1 : index
    // GRID: launch-negative-dimensions.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': grid size -1 in x: every dimension of the grid and of a block must be at least 1
    gpu.launch_func @kernels::@k blocks in (%m1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }

  func.func @negative_block() {
    %c1 = arith.constant 1 : index
    %m2 = arith.constant -2 : index
    // BLOCK: launch-negative-dimensions.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': block size -2 in z: every dimension of the grid and of a block must be at least 1
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %m2)
    return
  }
}
