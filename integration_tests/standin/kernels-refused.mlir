// A program with a kernel on the stand-ins: the module loads (a fatbin for
// sm_90, a gfx90a code object), the kernel is found by name, and the launch,
// once its arguments check out, is refused with an error that says the
// stand-in runs a kernel only from its LLVM IR, which the runtime does not
// give it yet (CUDA), or runs no kernels (HIP), at the gpu.launch_func.
// REQUIRES: cuda-standin-lib, hip-standin-lib, ptxas
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin --no-cache %s 2>&1 | FileCheck %s -DERROR="CUDA_ERROR_NOT_SUPPORTED: operation not supported: this is gpu-runner's CUDA driver stand-in, which runs a kernel only from the LLVM IR its image was compiled from (gpuRunnerStandinModuleAttachIR), and only what it implements of that IR"
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s -DERROR="hipErrorNotSupported: operation not supported: this is gpu-runner's HIP runtime stand-in, which runs no kernels"
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// CUDA:      cuModuleLoadData(format=fatbin) -> CUDA_SUCCESS [*module=[[M:module#[0-9]+]]]
// The cubin lists the parameters: a memref's five fields, and the f32.
// CUDA-NEXT: cuModuleGetFunction(hmod=[[M]], name=scale) -> CUDA_SUCCESS [*hfunc=[[F:function#[0-9]+]](scale), params=8,8,8,8,8,4]
// CUDA:      cuLaunchKernel(f=[[F]](scale), grid=2x1x1, block=4x1x1, sharedMemBytes=0, hStream=legacy, params=kernelParams=set, extra=null) -> CUDA_ERROR_NOT_SUPPORTED
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
