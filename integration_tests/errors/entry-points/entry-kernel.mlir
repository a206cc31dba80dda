// A kernel is not a host function: naming one with -e is an error, which
// lists the functions -e takes and the kernels --launch takes.
// RUN: %expect-exit-1 %gpu-runner %s -e k 2>&1 | FileCheck %s

// CHECK: entry-kernel.mlir:[[# @LINE + 1]]:1: error: entry point 'k' not found; name it with -e: the program's functions are main; or run one kernel with --launch=MODULE::KERNEL: kernels::k{{$}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }

  func.func @main() {
    return
  }
}
