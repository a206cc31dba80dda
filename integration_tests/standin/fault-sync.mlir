// The device reports an illegal address when a stream is synchronized
// after a copy: the error is at the gpu.wait that synchronized it, and the
// run stops with status 1.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=cuStreamSynchronize:1:CUDA_ERROR_ILLEGAL_ADDRESS %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s -DERROR="CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=hipStreamSynchronize:1:hipErrorIllegalAddress %gpu-runner-hip-standin %s 2>&1 | FileCheck %s -DERROR="hipErrorIllegalAddress: an illegal memory access was encountered"

func.func @main() {
  %host = memref.alloc() : memref<16xf32>
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  %t2 = gpu.memcpy async [%t1] %dev, %host : memref<16xf32>, memref<16xf32>
  // CHECK: fault-sync.mlir:[[# @LINE + 2]]:3: error: gpu.wait: [[ERROR]]
  // CHECK-NOT: error
  gpu.wait [%t2]
  gpu.dealloc %dev : memref<16xf32>
  return
}
