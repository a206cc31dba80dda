// A barrier that not every thread of a block reaches is an error naming the
// kernel, the block and the barrier, never a hang.
// RUN: %expect-exit-1 %gpu-runner %s -e early_exit 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: %expect-exit-1 %gpu-runner %s -e divergent 2>&1 | FileCheck %s --check-prefix=DIVERGENT

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @early_exit(%n: index) kernel {
      %tid = gpu.thread_id x
      %out = arith.cmpi uge, %tid, %n : index
      cf.cond_br %out, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      // EXIT: barrier-deadlock.mlir:[[# @LINE + 1]]:7: error: gpu.barrier: deadlock in kernel 'early_exit', block (0, 0, 0): 30 of 32 threads wait at this barrier, but thread (30, 0, 0) returned without reaching it
      gpu.barrier
      gpu.return
    }

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

  func.func @early_exit() {
    %c1 = arith.constant 1 : index
    %c30 = arith.constant 30 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@early_exit blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%c30 : index)
    return
  }

  func.func @divergent() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@divergent blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    return
  }
}
