// Every GPU thread whose cf.assert fails prints its own line, as CUDA's
// device assert does ("each thread for which expression is equal to zero
// prints a message", CUDA C++ Programming Guide, Assertion), in the order of
// the threads; the other threads of the block go on to their end, their
// printf output kept; then the launch fails, with status 1. A plain file
// location gives the file and line, and no function: "(unknown)", as
// upstream's NVVM lowering passes to __assertfail.
// RUN: %expect-exit-1 %gpu-runner %s -e loops 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: %expect-exit-1 %gpu-runner %s -e fibers 2>&1 | FileCheck %s --check-prefix=FIBERS
// RUN: %expect-exit-1 %gpu-runner --no-barrier-splitting %s -e fibers 2>&1 | FileCheck %s --check-prefix=FIBERS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Threads 3, 5 and 7 fail: odd and at least 3.
    func.func @passes(%t: index) -> i1 {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %rem = arith.remui %t, %c2 : index
      %odd = arith.cmpi eq, %rem, %c1 : index
      %big = arith.cmpi uge, %t, %c3 : index
      %fails = arith.andi %odd, %big : i1
      %true = arith.constant true
      %ok = arith.xori %fails, %true : i1
      return %ok : i1
    }

    gpu.func @loops(%out: memref<8xi32>) kernel {
      %t = gpu.thread_id x
      gpu.printf "before %ld\n", %t : index
      %ok = func.call @passes(%t) : (index) -> i1
      cf.assert %ok, "thread must be even or below 3"
      gpu.printf "after %ld\n", %t : index
      %one = arith.constant 1 : i32
      memref.store %one, %out[%t] : memref<8xi32>
      gpu.return
    }

    gpu.func @fibers(%out: memref<8xi32>) kernel {
      %t = gpu.thread_id x
      gpu.printf "before %ld\n", %t : index
      gpu.barrier
      %ok = func.call @passes(%t) : (index) -> i1
      cf.assert %ok, "thread must be even or below 3"
      gpu.printf "after %ld\n", %t : index
      gpu.barrier
      gpu.printf "end %ld\n", %t : index
      gpu.return
    }
  }

  // LOOPS:      before 0
  // LOOPS-NEXT: after 0
  // LOOPS-NEXT: before 1
  // LOOPS-NEXT: after 1
  // LOOPS-NEXT: before 2
  // LOOPS-NEXT: after 2
  // LOOPS-NEXT: before 3
  // LOOPS-NEXT: before 4
  // LOOPS-NEXT: after 4
  // LOOPS-NEXT: before 5
  // LOOPS-NEXT: before 6
  // LOOPS-NEXT: after 6
  // LOOPS-NEXT: before 7
  // LOOPS-NEXT: {{^.*}}kernel-assert-threads.mlir:32: (unknown): block: [0,0,0], thread: [3,0,0] Assertion `thread must be even or below 3` failed.
  // LOOPS-NEXT: {{^.*}}kernel-assert-threads.mlir:32: (unknown): block: [0,0,0], thread: [5,0,0] Assertion `thread must be even or below 3` failed.
  // LOOPS-NEXT: {{^.*}}kernel-assert-threads.mlir:32: (unknown): block: [0,0,0], thread: [7,0,0] Assertion `thread must be even or below 3` failed.
  // LOOPS-NEXT: kernel-assert-threads.mlir:[[# @LINE + 6]]:5: error: gpu.launch_func: kernel 'loops' failed in block (0, 0, 0): 3 threads failed an assertion (printed above)
  // LOOPS-NOT: {{.}}
  func.func @loops() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<8xi32>
    gpu.launch_func @kernels::@loops blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xi32>)
    return
  }

  // The threads that failed no longer count at the second barrier, as
  // threads that exited: the others pass it.
  // FIBERS:      before 0
  // FIBERS:      before 7
  // FIBERS-NEXT: after 0
  // FIBERS-NEXT: after 1
  // FIBERS-NEXT: after 2
  // FIBERS-NEXT: after 4
  // FIBERS-NEXT: after 6
  // FIBERS-NEXT: end 0
  // FIBERS-NEXT: end 1
  // FIBERS-NEXT: end 2
  // FIBERS-NEXT: end 4
  // FIBERS-NEXT: end 6
  // FIBERS-NEXT: {{^.*}}kernel-assert-threads.mlir:44: (unknown): block: [0,0,0], thread: [3,0,0] Assertion `thread must be even or below 3` failed.
  // FIBERS-NEXT: {{^.*}}kernel-assert-threads.mlir:44: (unknown): block: [0,0,0], thread: [5,0,0] Assertion `thread must be even or below 3` failed.
  // FIBERS-NEXT: {{^.*}}kernel-assert-threads.mlir:44: (unknown): block: [0,0,0], thread: [7,0,0] Assertion `thread must be even or below 3` failed.
  // FIBERS-NEXT: kernel-assert-threads.mlir:[[# @LINE + 6]]:5: error: gpu.launch_func: kernel 'fibers' failed in block (0, 0, 0): 3 threads failed an assertion (printed above)
  // FIBERS-NOT: {{.}}
  func.func @fibers() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<8xi32>
    gpu.launch_func @kernels::@fibers blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xi32>)
    return
  }
}
