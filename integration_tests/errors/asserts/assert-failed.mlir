// A failed cf.assert in host code is an error at the op, with its message,
// on stderr, and stops the program with status 1, not an abort. In a kernel,
// each thread that fails prints the line a GPU's device assert prints, and
// the launch fails (kernel-assert-threads.mlir).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s --check-prefix=HOST --implicit-check-not=error:
// RUN: count 0 < %t.out
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

  func.func @main() {
    %count = arith.constant 0 : i32
    %zero = arith.constant 0 : i32
    %positive = arith.cmpi sgt, %count, %zero : i32
    // HOST: assert-failed.mlir:[[# @LINE + 1]]:5: error: cf.assert: the count must be positive
    cf.assert %positive, "the count must be positive"
    return
  }

  // KERNEL:      {{^.*}}assert-failed.mlir:14: (unknown): block: [0,0,0], thread: [2,0,0] Assertion `thread id out of range` failed.
  // KERNEL-NEXT: {{^.*}}assert-failed.mlir:14: (unknown): block: [0,0,0], thread: [3,0,0] Assertion `thread id out of range` failed.
  func.func @kernel() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // KERNEL-NEXT: assert-failed.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'check' failed in block (0, 0, 0): 2 threads failed an assertion (printed above)
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c2 : index)
    return
  }
}
