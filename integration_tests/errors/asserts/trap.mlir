// llvm.intr.trap in a kernel whose threads are fibers: reported with the
// thread that trapped. (As loops cut at the shuffle, the thread is not
// known: faults/kernel-fault.mlir checks that message.)
// RUN: %expect-exit-1 %gpu-runner --no-barrier-splitting %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<32xf32>) kernel {
      %tid = gpu.thread_id x
      %c5 = arith.constant 5 : index
      %x = arith.constant 1.0 : f32
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      %v, %valid = gpu.shuffle xor %x, %c1_i32, %c32_i32 : f32
      %bad = arith.cmpi eq, %tid, %c5 : index
      scf.if %bad {
        llvm.intr.trap
      }
      memref.store %v, %out[%tid] : memref<32xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = gpu.alloc () : memref<32xf32>
    // CHECK: trap.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': trap (llvm.intr.trap, or code the program marks as unreachable) in block (0, 0, 0), thread (5, 0, 0)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    gpu.dealloc %out : memref<32xf32>
    return
  }
}
