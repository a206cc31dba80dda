// llvm.amdgcn.ballot on the HIP stand-in (rocdl.ballot, written in the
// kernel, which the host backend does not take): the lanes of the wave that
// execute it together each get a mask with a bit for each of them whose
// condition holds; a lane that does not execute it, or does not exist,
// gives 0. Here lanes 8 to 39 of a block of 40 (one wave of 64 on the
// stand-in's gfx90a) vote on k mod 3 = 0, and the others store 0.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %gpu-runner-hip-standin --no-cache %s | FileCheck %s

// sum(1 << k for k in range(8, 40) if k % 3 == 0), in lanes 8 to 39.
// CHECK: [0,  0,  0,  0,  0,  0,  0,  0,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656,  628292358656]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ballot(%out: memref<40xi64>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %r = arith.remui %t, %c3 : index
      %p = arith.cmpi eq, %r, %c0 : index
      %late = arith.cmpi uge, %t, %c8 : index
      %b = scf.if %late -> i64 {
        %votes = rocdl.ballot %p : i64
        scf.yield %votes : i64
      } else {
        %none = arith.constant 0 : i64
        scf.yield %none : i64
      }
      memref.store %b, %out[%t] : memref<40xi64>
      gpu.return
    }
  }

  func.func private @printMemrefI64(memref<*xi64>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %out = gpu.alloc () : memref<40xi64>
    gpu.launch_func @kernels::@ballot blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1) args(%out : memref<40xi64>)
    %h = memref.alloc () : memref<40xi64>
    gpu.memcpy %h, %out : memref<40xi64>, memref<40xi64>
    %u = memref.cast %h : memref<40xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    memref.dealloc %h : memref<40xi64>
    gpu.dealloc %out : memref<40xi64>
    return
  }
}
