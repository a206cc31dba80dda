// A kernel that traps on the HIP stand-in (llvm.trap, s_trap on a GPU): the
// launch fails with hipErrorLaunchFailure, which is sticky (HIP mirrors
// CUDA's runtime, where an unspecified launch failure leaves every later
// call failing), the stand-in says on stderr which thread trapped, and the
// runner reports it at the launch once a synchronization returns it, with
// exit status 1. (A device assert writes its line, then traps:
// hip-kernel-assert.mlir.)
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.trace %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// CHECK: gpu-runner HIP runtime stand-in: kernel 'stop', block (0, 0, 0), thread (2, 0, 0) executed trap at trap in 'stop'
// The launch returns while its grid runs on the stream: the call's line and
// the grid's failure come in either order, then the synchronization.
// TRACE-DAG: hipModuleLaunchKernel(f={{.*}}(stop), {{.*}}) -> hipSuccess
// TRACE-DAG: launch of kernel 'stop' failed: hipErrorLaunchFailure: kernel 'stop', block (0, 0, 0), thread (2, 0, 0) executed trap
// TRACE: hipStreamSynchronize(stream=null) -> hipErrorLaunchFailure

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stop(%out: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %is = arith.cmpi eq, %t, %c2 : index
      scf.if %is {
        llvm.intr.trap
      }
      %v = arith.index_cast %t : index to i32
      memref.store %v, %out[%t] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = gpu.alloc () : memref<4xi32>
    // CHECK: hip-kernel-trap.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'stop' failed: hipErrorLaunchFailure: unspecified launch failure
    gpu.launch_func @kernels::@stop blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xi32>)
    gpu.wait
    return
  }
}
