// gpu.launch_func needs the module to be marked as one that holds kernels.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    // CHECK: verifier-container-module.mlir:[[# @LINE + 1]]:5: error: 'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
