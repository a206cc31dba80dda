// A failed cf.assert prints its message and stops the program with an error
// (in a kernel: which kernel and block), status 1, not an abort.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: %expect-exit-1 %gpu-runner %s -e kernel 2>&1 | FileCheck %s --check-prefix=KERNEL

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%n: index) kernel {
      %tid = gpu.thread_id x
      %ok = arith.cmpi ult, %tid, %n : index
      cf.assert %ok, "thread id out of range"
      gpu.return
    }
  }

  // HOST: {{^}}the count must be positive
  // HOST-NEXT: error: the program aborted: a failed cf.assert (its message is printed above) or a call of abort()
  func.func @main() {
    %count = arith.constant 0 : i32
    %zero = arith.constant 0 : i32
    %positive = arith.cmpi sgt, %count, %zero : i32
    cf.assert %positive, "the count must be positive"
    return
  }

  // KERNEL: {{^}}thread id out of range
  func.func @kernel() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // KERNEL: assert-failed.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'check' aborted in block (0, 0, 0): a failed cf.assert (its message is printed above) or a call of abort()
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c2 : index)
    return
  }
}
