// The driver runs out of memory at the first allocation: the error is at
// the gpu.alloc, names the vendor's error and what was asked for, and the
// run stops with status 1.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=cuMemAlloc_v2:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s -DERROR=CUDA_ERROR_OUT_OF_MEMORY
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=hipMalloc:1:hipErrorOutOfMemory %gpu-runner-hip-standin %s 2>&1 | FileCheck %s -DERROR=hipErrorOutOfMemory

func.func @main() {
  // CHECK: fault-alloc.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: [[ERROR]]: out of memory: 400 bytes were asked for, 17179869184 bytes of the device's 17179869184 bytes are free
  %m = gpu.alloc () : memref<100xf32>
  gpu.dealloc %m : memref<100xf32>
  return
}
