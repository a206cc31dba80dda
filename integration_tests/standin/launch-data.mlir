// --launch on the stand-ins: the generated host code allocates, copies each
// memref in and launches through the same driver calls a program's own host
// code makes, with the grid, the block and the dynamic shared memory given.
// The CUDA stand-in runs the kernel: every block scales the first four
// elements, racing as a GPU's blocks would, so only the four it never
// touches are checked. The HIP stand-in, which runs no kernels, refuses the
// launch at the gpu.func, the launch's location.
// REQUIRES: cuda-standin-lib, hip-standin-lib, ptxas
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin --no-cache %s --launch=kernels::scale --grid=2,3 --block=4,2 --dynamic-shared-memory=64 --input=8xf32=1 --input=2 2>&1 | FileCheck %s --check-prefix=CUDA-OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --no-cache %s --launch=kernels::scale --grid=2,3 --block=4,2 --dynamic-shared-memory=64 --input=8xf32=1 --input=2 2>&1 | FileCheck %s -DERROR="hipErrorNotSupported: operation not supported: this is gpu-runner's HIP runtime stand-in, which runs no kernels"
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// CUDA-OUT:      result[0]: memref<?xf32>
// CUDA-OUT-NEXT: [{{[0-9]+}},  {{.*}},  1,  1,  1,  1]
// CUDA:      cuMemAlloc_v2(bytesize=32)
// CUDA:      cuMemcpy{{.*}}ByteCount=32
// CUDA:      cuLaunchKernel(f={{.*}}(scale), grid=2x3x1, block=4x2x1, sharedMemBytes=64, {{.*}} -> CUDA_SUCCESS
// HIP:       hipMalloc{{.*}}size=32
// HIP:       hipMemcpy{{.*}}sizeBytes=32
// HIP:       hipModuleLaunchKernel(f={{.*}}(scale), grid=2x3x1, block=4x2x1, sharedMemBytes=64,

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: launch-data.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'scale': [[ERROR]]
    gpu.func @scale(%data: memref<?xf32>, %factor: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<?xf32>
      %w = arith.mulf %v, %factor : f32
      memref.store %w, %data[%i] : memref<?xf32>
      gpu.return
    }
  }
}
