// The synchronous form of the timers: a null stream. Each point waits for all
// the work enqueued so far on any stream, so a region covers the program's
// host code too (here a 20 ms sleep) and the asynchronous copy before the
// stop, whatever stream it ran on. Two timers run at once.
// RUN: %gpu-runner %s | FileCheck %s

func.func private @mgpuTimerCreate() -> !llvm.ptr
func.func private @mgpuTimerDestroy(!llvm.ptr)
func.func private @mgpuTimerStart(!llvm.ptr, !llvm.ptr)
func.func private @mgpuTimerStop(!llvm.ptr, !llvm.ptr)
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64
func.func private @usleep(i32) -> i32

func.func @main() {
  %null = llvm.mlir.zero : !llvm.ptr
  %outer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  %inner = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  func.call @mgpuTimerStart(%outer, %null) : (!llvm.ptr, !llvm.ptr) -> ()
  func.call @mgpuTimerStart(%inner, %null) : (!llvm.ptr, !llvm.ptr) -> ()
  %us = arith.constant 20000 : i32
  func.call @usleep(%us) : (i32) -> i32
  func.call @mgpuTimerStop(%inner, %null) : (!llvm.ptr, !llvm.ptr) -> ()

  %host = memref.alloc() : memref<256xf32>
  %dev = gpu.alloc () : memref<256xf32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %dev, %host : memref<256xf32>, memref<256xf32>
  func.call @mgpuTimerStop(%outer, %null) : (!llvm.ptr, !llvm.ptr) -> ()
  gpu.wait [%t1]

  %a = func.call @mgpuTimerElapsedNs(%inner) : (!llvm.ptr) -> i64
  %b = func.call @mgpuTimerElapsedNs(%outer) : (!llvm.ptr) -> i64
  %min = arith.constant 20000000 : i64
  %long = arith.cmpi sge, %a, %min : i64
  // CHECK: inner region took at least 20 ms: 1
  vector.print str "inner region took at least 20 ms: "
  vector.print %long : i1
  %nested = arith.cmpi sge, %b, %a : i64
  // CHECK-NEXT: outer region took at least as long: 1
  vector.print str "outer region took at least as long: "
  vector.print %nested : i1
  func.call @mgpuTimerDestroy(%inner) : (!llvm.ptr) -> ()
  func.call @mgpuTimerDestroy(%outer) : (!llvm.ptr) -> ()
  gpu.dealloc %dev : memref<256xf32>
  memref.dealloc %host : memref<256xf32>
  return
}
