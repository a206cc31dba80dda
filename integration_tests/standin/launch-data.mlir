// --launch on the stand-ins: the generated host code allocates, copies each
// memref in and launches through the same driver calls a program's own host
// code makes, with the grid, the block and the dynamic shared memory given.
// Both stand-ins run the kernel: every block scales the first four
// elements, racing as a GPU's blocks would, so only the four it never
// touches are checked.
// REQUIRES: cuda-standin-lib, hip-standin-lib, ptxas
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin --no-cache %s --launch=kernels::scale --grid=2,3 --block=4,2 --dynamic-shared-memory=64 --input=8xf32=1 --input=2 2>&1 | FileCheck %s --check-prefix=CUDA-OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --no-cache %s --launch=kernels::scale --grid=2,3 --block=4,2 --dynamic-shared-memory=64 --input=8xf32=1 --input=2 2>&1 | FileCheck %s --check-prefix=CUDA-OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// CUDA-OUT:      result[0]: memref<?xf32>
// CUDA-OUT-NEXT: [{{[0-9]+}},  {{.*}},  1,  1,  1,  1]
// CUDA:      cuMemAlloc_v2(bytesize=32)
// CUDA:      cuMemcpy{{.*}}ByteCount=32
// CUDA:      cuLaunchKernel(f={{.*}}(scale), grid=2x3x1, block=4x2x1, sharedMemBytes=64, {{.*}} -> CUDA_SUCCESS
// HIP:       hipMalloc{{.*}}size=32
// HIP:       hipMemcpy{{.*}}sizeBytes=32
// HIP:       hipModuleLaunchKernel(f={{.*}}(scale), grid=2x3x1, block=4x2x1, sharedMemBytes=64, {{.*}} -> hipSuccess

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<?xf32>, %factor: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<?xf32>
      %w = arith.mulf %v, %factor : f32
      memref.store %w, %data[%i] : memref<?xf32>
      gpu.return
    }
  }
}
