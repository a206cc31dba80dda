// Misused timers stop the program with exit status 1 and an error at the call
// that names the runtime function.
// RUN: not %gpu-runner %s -e stop_before_start 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not %gpu-runner %s -e elapsed_without_stop 2>&1 | FileCheck %s --check-prefix=ELAPSED
// RUN: not %gpu-runner %s -e destroyed_twice 2>&1 | FileCheck %s --check-prefix=DESTROYED
// RUN: not %gpu-runner %s -e released_stream 2>&1 | FileCheck %s --check-prefix=RELEASED

func.func private @mgpuTimerCreate() -> !llvm.ptr
func.func private @mgpuTimerDestroy(!llvm.ptr)
func.func private @mgpuTimerStart(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerStop(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64

// STOP: timer-invalid.mlir:[[# @LINE + 4]]:3: error: mgpuTimerStop: the timer was never started
func.func @stop_before_start() {
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  %t = gpu.wait async
  func.call @mgpuTimerStop(%timer, %t) : (!llvm.ptr, !gpu.async.token) -> ()
  return
}

// ELAPSED: timer-invalid.mlir:[[# @LINE + 5]]:9: error: mgpuTimerElapsedNs: the timer was started but not stopped
func.func @elapsed_without_stop() {
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  %t = gpu.wait async
  func.call @mgpuTimerStart(%timer, %t) : (!llvm.ptr, !gpu.async.token) -> ()
  %ns = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  return
}

// DESTROYED: timer-invalid.mlir:[[# @LINE + 4]]:3: error: mgpuTimerDestroy: invalid timer handle {{.*}}: no timer was created with it, or it was destroyed
func.func @destroyed_twice() {
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()
  func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()
  return
}

// RELEASED: timer-invalid.mlir:[[# @LINE + 5]]:3: error: mgpuTimerStart: the stream of this op's async dependency was already released by a gpu.wait
func.func @released_stream() {
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  %t = gpu.wait async
  gpu.wait [%t]
  func.call @mgpuTimerStart(%timer, %t) : (!llvm.ptr, !gpu.async.token) -> ()
  return
}
