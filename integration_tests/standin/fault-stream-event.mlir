// The driver cannot create a stream, or an event: each is an error at the
// op that needed it (the first asynchronous op; a gpu.wait async that joins
// two tokens), and the run stops with status 1.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=cuStreamCreate:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --check-prefix=STREAM -DERROR=CUDA_ERROR_OUT_OF_MEMORY
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=hipStreamCreateWithFlags:1:hipErrorOutOfMemory %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --check-prefix=STREAM -DERROR=hipErrorOutOfMemory
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=cuEventCreate:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --check-prefix=EVENT -DERROR=CUDA_ERROR_OUT_OF_MEMORY
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=hipEventCreateWithFlags:1:hipErrorOutOfMemory %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --check-prefix=EVENT -DERROR=hipErrorOutOfMemory

func.func @main() {
  %dev = gpu.alloc () : memref<8xi32>
  %c1 = arith.constant 1 : i32
  // STREAM: fault-stream-event.mlir:[[# @LINE + 2]]:8: error: gpu.memset: [[ERROR]]: out of memory
  // STREAM-NOT: error
  %a = gpu.memset async %dev, %c1 : memref<8xi32>, i32
  %b = gpu.wait async
  // EVENT: fault-stream-event.mlir:[[# @LINE + 2]]:8: error: gpu.wait: [[ERROR]]: out of memory
  // EVENT-NOT: error
  %j = gpu.wait async [%a, %b]
  gpu.wait [%j]
  gpu.dealloc %dev : memref<8xi32>
  return
}
