// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: unsupported-kernel-module-content.mlir:[[# @LINE + 1]]:5: error: 'llvm.mlir.global' cannot run on the host backend: a kernel module may hold gpu.func, func.func, memref.global and external llvm.func declarations only
    llvm.mlir.global internal @counter(0 : i32) : i32
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
