// An external function a kernel calls is resolved like any other, and
// reported where the kernel module declares it.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: unresolved-in-kernel.mlir:[[# @LINE + 1]]:5: error: unresolved external function 'device_helper'
    func.func private @device_helper(f32) -> f32

    gpu.func @k(%m: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<1xf32>
      %w = func.call @device_helper(%v) : (f32) -> f32
      memref.store %w, %m[%c0] : memref<1xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<1xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<1xf32>)
    gpu.dealloc %m : memref<1xf32>
    return
  }
}
