// gpu.rotate needs "the first `width` lanes of the subgroup" active
// (GPUOps.td); a rotation that some of them never reach is a deadlock at
// the rotate, named as the program wrote it, never a hang.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @half(%out: memref<32xf32>) kernel {
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %low = arith.cmpi ult, %tid, %c16 : index
      scf.if %low {
        %x = arith.constant 1.0 : f32
        // CHECK: rotate-deadlock.mlir:[[# @LINE + 1]]:22: error: gpu.rotate: deadlock in kernel 'half', block (0, 0, 0): this shuffle of width 32 needs lanes 0-31 of subgroup 0, but lanes 16-31 (threads (16, 0, 0) to (31, 0, 0)) returned without reaching it
        %v, %valid = gpu.rotate %x, 1, 32 : f32
        memref.store %v, %out[%tid] : memref<32xf32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@half blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    gpu.dealloc %out : memref<32xf32>
    return
  }
}
