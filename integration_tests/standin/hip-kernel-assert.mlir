// cf.assert in a HIP kernel, on the HIP stand-in: it does what HIP's own
// device assert does (amd_device_functions.h, __assert_fail): each failing
// thread writes "FILE:LINE: FUNCTION: Device-side assertion `MESSAGE'
// failed." to stderr through the device libraries' hostcall printf, then
// traps. The launch fails with hipErrorLaunchFailure, sticky as for any
// trap (hip-kernel-trap.mlir; on ROCm the queue's error may also end the
// process), and the runner reports it at the launch, exit status 1. The
// file, line and function come from the op's location as on the other
// backends (errors/asserts/kernel-assert-locations.mlir). A thread whose
// assertion holds prints nothing.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.trace %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=Device-side
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// CHECK: device.hip:12: check_thread: Device-side assertion `thread 2 is not welcome' failed.
// CHECK-NEXT: gpu-runner HIP runtime stand-in: kernel 'check', block (0, 0, 0), thread (2, 0, 0) executed trap at trap in 'check'
// The launch returns while its grid runs on the stream: the call's line and
// the grid's failure come in either order, then the synchronization.
// TRACE-DAG: hipModuleLaunchKernel(f={{.*}}(check), {{.*}}) -> hipSuccess
// TRACE-DAG: launch of kernel 'check' failed: hipErrorLaunchFailure: kernel 'check', block (0, 0, 0), thread (2, 0, 0) executed trap
// TRACE: hipStreamSynchronize(stream=null) -> hipErrorLaunchFailure

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%out: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %ok = arith.cmpi ne, %t, %c2 : index
      cf.assert %ok, "thread 2 is not welcome" loc("check_thread"("device.hip":12:3))
      %v = arith.index_cast %t : index to i32
      memref.store %v, %out[%t] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = gpu.alloc () : memref<4xi32>
    // CHECK-NEXT: hip-kernel-assert.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'check' failed: hipErrorLaunchFailure: unspecified launch failure
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xi32>)
    gpu.wait
    return
  }
}
