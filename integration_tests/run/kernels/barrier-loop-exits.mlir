// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s

// A barrier in a loop whose trip count differs between threads: the threads
// with fewer iterations leave the loop and return while the others still
// wait at the barrier. A GPU waits for the non-exited threads only (PTX ISA,
// "barrier": "wait for non-exited threads of all other warps participating
// in the barrier"), so the others go on, in the second block too (blocks run
// in parallel on the pool).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rounds(%out: memref<128xindex>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %i = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      // Block 0: every thread loops 4 times; block 1: thread t loops t % 4.
      %is_first = arith.cmpi eq, %bid, %c0 : index
      %mod = arith.remui %tid, %c4 : index
      %n = arith.select %is_first, %c4, %mod : index
      %rounds = scf.for %k = %c0 to %n step %c1 iter_args(%done = %c0) -> index {
        gpu.barrier
        %next = arith.addi %done, %c1 : index
        scf.yield %next : index
      }
      memref.store %rounds, %out[%i] : memref<128xindex>
      gpu.return
    }
  }

  func.func private @printMemrefInd(memref<*xindex>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<128xindex>
    gpu.launch_func @kernels::@rounds blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<128xindex>)
    %h = memref.alloc () : memref<128xindex>
    gpu.memcpy %h, %out : memref<128xindex>, memref<128xindex>
    // CHECK: [4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3,  0,  1,  2,  3]
    %u = memref.cast %h : memref<128xindex> to memref<*xindex>
    call @printMemrefInd(%u) : (memref<*xindex>) -> ()
    memref.dealloc %h : memref<128xindex>
    gpu.dealloc %out : memref<128xindex>
    return
  }
}
