// The timers of the runtime (mgpuTimer*) on a stream token: a point is
// reached when the stream gets there. The start is reached soon (the stream
// is idle); the copy and the stop are enqueued only after the program slept
// 100 ms, so the region measures most of that (the margin is for the
// stream's worker waking up late on a busy machine). The copied data is
// checked, and a timer can be started again.
// RUN: %gpu-runner %s | FileCheck %s

func.func private @mgpuTimerCreate() -> !llvm.ptr
func.func private @mgpuTimerDestroy(!llvm.ptr)
func.func private @mgpuTimerStart(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerStop(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64
func.func private @usleep(i32) -> i32

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  %host = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %host[%i] : memref<?xi32>
  }
  %dev = gpu.alloc (%n) : memref<?xi32>
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr

  %t0 = gpu.wait async
  func.call @mgpuTimerStart(%timer, %t0) : (!llvm.ptr, !gpu.async.token) -> ()
  %us = arith.constant 100000 : i32
  func.call @usleep(%us) : (i32) -> i32
  %t1 = gpu.memcpy async [%t0] %dev, %host : memref<?xi32>, memref<?xi32>
  func.call @mgpuTimerStop(%timer, %t1) : (!llvm.ptr, !gpu.async.token) -> ()
  %ns = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  %min = arith.constant 50000000 : i64
  %long = arith.cmpi sge, %ns, %min : i64
  // CHECK: region with a 100 ms sleep took at least 50 ms: 1
  vector.print str "region with a 100 ms sleep took at least 50 ms: "
  vector.print %long : i1

  // Read again: the same figure.
  %again = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  %same = arith.cmpi eq, %again, %ns : i64
  // CHECK-NEXT: read again, the same: 1
  vector.print str "read again, the same: "
  vector.print %same : i1

  // Started again on the same stream, without the sleep: a time of its own,
  // shorter than the first.
  func.call @mgpuTimerStart(%timer, %t1) : (!llvm.ptr, !gpu.async.token) -> ()
  %t2 = gpu.memcpy async [%t1] %host, %dev : memref<?xi32>, memref<?xi32>
  func.call @mgpuTimerStop(%timer, %t2) : (!llvm.ptr, !gpu.async.token) -> ()
  gpu.wait [%t2]
  %ns2 = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  %c0i = arith.constant 0 : i64
  %nonneg = arith.cmpi sge, %ns2, %c0i : i64
  %shorter = arith.cmpi slt, %ns2, %ns : i64
  %both = arith.andi %nonneg, %shorter : i1
  // CHECK-NEXT: restarted: 1
  vector.print str "restarted: "
  vector.print %both : i1
  func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()

  // The copies moved the data.
  %last = arith.constant 1023 : index
  %v = memref.load %host[%last] : memref<?xi32>
  // CHECK-NEXT: 1023
  vector.print %v : i32
  gpu.dealloc %dev : memref<?xi32>
  memref.dealloc %host : memref<?xi32>
  return
}
