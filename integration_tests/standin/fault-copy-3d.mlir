// The driver refuses a 3-D copy: the error is at the gpu.memcpy, and the
// run stops with status 1.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=cuMemcpy3DAsync_v2:1:CUDA_ERROR_INVALID_VALUE %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s -DERROR="CUDA_ERROR_INVALID_VALUE: invalid argument"
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=hipMemcpy3DAsync:1:hipErrorInvalidValue %gpu-runner-hip-standin %s 2>&1 | FileCheck %s -DERROR="hipErrorInvalidValue: invalid argument"

func.func @main() {
  %dev = gpu.alloc () : memref<4x4x4xf32>
  %box = memref.subview %dev[1, 1, 1] [2, 2, 2] [1, 1, 1]
      : memref<4x4x4xf32> to memref<2x2x2xf32, strided<[16, 4, 1], offset: 21>>
  %host = memref.alloc() : memref<2x2x2xf32>
  // CHECK: fault-copy-3d.mlir:[[# @LINE + 2]]:3: error: gpu.memcpy: [[ERROR]]
  // CHECK-NOT: error
  gpu.memcpy %host, %box : memref<2x2x2xf32>, memref<2x2x2xf32, strided<[16, 4, 1], offset: 21>>
  gpu.dealloc %dev : memref<4x4x4xf32>
  return
}
