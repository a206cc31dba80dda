// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant -16 : i32
    // CHECK: shared-memory-negative.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': negative dynamic shared memory size -16
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
}
