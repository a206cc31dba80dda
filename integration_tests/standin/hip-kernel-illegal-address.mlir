// A kernel on the HIP stand-in given host memory: its store is an illegal
// address, as on a GPU. The stand-in says on stderr which thread wrote
// where and never writes there; the launch's failure, hipErrorIllegalAddress,
// is sticky (HIP mirrors CUDA's runtime, whose illegal address leaves every
// later call failing), so the runner reports it at the launch once a
// synchronization returns it, and exits with status 1.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.trace %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// CHECK: gpu-runner HIP runtime stand-in: kernel 'poke', block (0, 0, 0), thread ({{[0-3]}}, 0, 0): a write of 4 bytes at 0x{{[0-9a-f]+}} (host, through a global pointer) at a store of 4 bytes in 'poke': an illegal address.
// The launch returns while its grid runs on the stream: the call's line and
// the grid's failure come in either order, then the synchronization.
// TRACE-DAG: hipModuleLaunchKernel(f={{.*}}(poke), {{.*}}) -> hipSuccess
// TRACE-DAG: launch of kernel 'poke' failed: hipErrorIllegalAddress
// TRACE: hipStreamSynchronize(stream=null) -> hipErrorIllegalAddress

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @poke(%data: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %c = arith.constant 7 : i32
      memref.store %c, %data[%t] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc () : memref<4xi32>
    // CHECK: hip-kernel-illegal-address.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'poke' failed: hipErrorIllegalAddress
    gpu.launch_func @kernels::@poke blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%host : memref<4xi32>)
    gpu.wait
    memref.dealloc %host : memref<4xi32>
    return
  }
}
