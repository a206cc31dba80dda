// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    // CHECK: verifier-launch-unknown-kernel.mlir:[[# @LINE + 1]]:5: error: 'gpu.launch_func' op kernel function '@kernels::@missing' is undefined
    gpu.launch_func @kernels::@missing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
