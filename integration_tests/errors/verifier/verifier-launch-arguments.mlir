// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<4xi32>
    // CHECK: verifier-launch-arguments.mlir:[[# @LINE + 1]]:5: error: 'gpu.launch_func' op type of function argument 0 does not match
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xi32>)
    return
  }
}
