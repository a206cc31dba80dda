// A program with a kernel on the HIP stand-in, which runs no kernels: the
// module loads (a gfx90a code object), the kernel is found by name, and the
// launch, once its arguments check out, is refused with an error that says
// so, at the gpu.launch_func. The CUDA stand-in runs it (kernels-run.mlir).
// REQUIRES: hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s -DERROR="hipErrorNotSupported: operation not supported: this is gpu-runner's HIP runtime stand-in, which runs no kernels"
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// HIP:       hipModuleLoadData(format=code object) -> hipSuccess [*module=[[M:module#[0-9]+]]]
// HIP-NEXT:  hipModuleGetFunction(module=[[M]], kname=scale) -> hipSuccess [*function=[[F:function#[0-9]+]](scale), params=unknown]
// HIP:       hipModuleLaunchKernel(f=[[F]](scale), grid=2x1x1, block=4x1x1, sharedMemBytes=0, stream=null, params=kernelParams=set, extra=null) -> hipErrorNotSupported

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<8xf32>, %factor: f32) kernel {
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %size = gpu.block_dim x
      %base = arith.muli %block, %size : index
      %i = arith.addi %base, %thread : index
      %v = memref.load %data[%i] : memref<8xf32>
      %w = arith.mulf %v, %factor : f32
      memref.store %w, %data[%i] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %factor = arith.constant 2.0 : f32
    %data = gpu.alloc () : memref<8xf32>
    // CHECK: kernels-refused.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'scale': [[ERROR]]
    // CHECK-NOT: error
    gpu.launch_func @kernels::@scale blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%data : memref<8xf32>, %factor : f32)
    gpu.dealloc %data : memref<8xf32>
    return
  }
}
