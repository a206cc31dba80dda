// gpu.all_reduce keeps its subgroups' results in workgroup memory of the
// kernel, so it must stand in the kernel itself, not in a function the
// kernel calls; the error says so at the op.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @sum(%v: i32) -> i32 {
      // CHECK: all-reduce-outside-kernel.mlir:[[# @LINE + 1]]:12: error: 'gpu.all_reduce' is supported in kernels only (a gpu.func with the kernel attribute): it combines the subgroups' results in the kernel's workgroup memory
      %s = gpu.all_reduce add %v uniform {} : (i32) -> i32
      return %s : i32
    }

    gpu.func @k(%out: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %s = func.call @sum(%one) : (i32) -> i32
      memref.store %s, %out[%c0] : memref<1xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc () : memref<1xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<1xi32>)
    gpu.dealloc %m : memref<1xi32>
    return
  }
}
