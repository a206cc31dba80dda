// A barrier in a loop whose trip count differs between threads: the threads
// with fewer iterations return while the others wait. Reported, not a hang,
// in the second block too (blocks run in parallel on the pool).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rounds(%out: memref<64xindex>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      // Block 0: every thread loops 4 times; block 1: thread t loops t % 4.
      %is_first = arith.cmpi eq, %bid, %c0 : index
      %mod = arith.remui %tid, %c4 : index
      %n = arith.select %is_first, %c4, %mod : index
      scf.for %i = %c0 to %n step %c1 {
        // CHECK: barrier-loop-deadlock.mlir:[[# @LINE + 1]]:9: error: gpu.barrier: deadlock in kernel 'rounds', block (1, 0, 0): 48 of 64 threads wait at this barrier, but thread (0, 0, 0) returned without reaching it
        gpu.barrier
      }
      memref.store %n, %out[%tid] : memref<64xindex>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xindex>
    gpu.launch_func @kernels::@rounds blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xindex>)
    gpu.dealloc %out : memref<64xindex>
    return
  }
}
