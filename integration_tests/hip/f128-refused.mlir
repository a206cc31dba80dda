// f128 arithmetic in a kernel is refused at the op, before anything is
// compiled: AMD GPUs have no 128-bit floating point and ocml no functions
// for it, and the code generator, asked for one, stopped the runner with
// "unsupported library call operation" and no location. CUDA refuses it
// the same way (lowering/refuse-target-ops-invalid.mlir).
// REQUIRES: hip-runner
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf128>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf128>
      // CHECK: f128-refused.mlir:[[# @LINE + 1]]:12: error: 'math.tanh' on f128 cannot be compiled for AMD GPUs: they have no 128-bit floating point, and their device libraries no functions for it; compute in f64, or run the program with gpu-runner-host
      %y = math.tanh %x : f128
      memref.store %y, %a[%i] : memref<4xf128>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc () : memref<4xf128>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf128>)
    gpu.dealloc %m : memref<4xf128>
    return
  }
}
