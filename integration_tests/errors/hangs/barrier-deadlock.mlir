// A barrier that not every thread of a block reaches is an error naming the
// kernel, the block and the barrier, never a hang. (Threads that return
// before a barrier do not count: run/kernels/barrier-early-exit.mlir;
// deadlocks after such returns: barrier-exit-deadlock.mlir.)
// RUN: %expect-exit-1 %gpu-runner %s -e divergent 2>&1 | FileCheck %s --check-prefix=DIVERGENT

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @divergent() kernel {
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %low = arith.cmpi ult, %tid, %c16 : index
      scf.if %low {
        // DIVERGENT: barrier-deadlock.mlir:[[# @LINE + 1]]:9: error: gpu.barrier: deadlock in kernel 'divergent', block (0, 0, 0):
        gpu.barrier
      } else {
        // DIVERGENT-SAME: barrier-deadlock.mlir:[[# @LINE + 1]]:9
        gpu.barrier
      }
      gpu.return
    }
  }

  func.func @divergent() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@divergent blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    return
  }
}
