// GPU_RUNNER_CUDA_DRIVER and GPU_RUNNER_HIP_RUNTIME name the library to load:
// one that cannot be opened, or one that lacks an entry point the backend
// needs, is one clear error and status 1. A stand-in given a setting it
// cannot use stops at once with status 2.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=%t.missing.so %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA-MISSING
// RUN: %expect-exit-1 env GPU_RUNNER_HIP_RUNTIME=%t.missing.so %gpu-runner-hip %s 2>&1 | FileCheck %s --check-prefix=HIP-MISSING
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=%hip-standin-lib %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA-OLD
// RUN: %expect-exit-1 env GPU_RUNNER_HIP_RUNTIME=%cuda-standin-lib %gpu-runner-hip %s 2>&1 | FileCheck %s --check-prefix=HIP-OLD
// RUN: env GPU_RUNNER_STANDIN_FAULTS=cuMemAlloc:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1; test $? -eq 2
// RUN: not env GPU_RUNNER_STANDIN_FAULTS=cuMemAlloc:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --check-prefix=UNVERSIONED
// RUN: not env GPU_RUNNER_STANDIN_FAULTS=hipMalloc:0:hipErrorOutOfMemory %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --check-prefix=CALL-ZERO
// RUN: not env GPU_RUNNER_STANDIN_FAULTS=hipMalloc:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --check-prefix=WRONG-API
// RUN: not env GPU_RUNNER_STANDIN_DEVICES=0 %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --check-prefix=DEVICES

// CUDA-MISSING: error: GPU_RUNNER_CUDA_DRIVER={{.*}}.missing.so could not be loaded ({{.*}}No such file or directory)
// HIP-MISSING:  error: GPU_RUNNER_HIP_RUNTIME={{.*}}.missing.so could not be loaded ({{.*}}No such file or directory)
// CUDA-OLD:     error: the NVIDIA driver is too old: {{.*}}libgpu-runner-hip-standin.so does not provide cuInit
// HIP-OLD:      error: the HIP runtime is too old: {{.*}}libgpu-runner-cuda-standin.so does not provide hipInit
// UNVERSIONED:  gpu-runner CUDA driver stand-in: GPU_RUNNER_STANDIN_FAULTS: 'cuMemAlloc' is not an entry point the library exports (versioned entry points carry their suffix: cuMemAlloc_v2)
// CALL-ZERO:    gpu-runner HIP runtime stand-in: GPU_RUNNER_STANDIN_FAULTS: '0' in 'hipMalloc:0:hipErrorOutOfMemory' is not a call number (1 is the first call)
// WRONG-API:    gpu-runner HIP runtime stand-in: GPU_RUNNER_STANDIN_FAULTS: 'CUDA_ERROR_OUT_OF_MEMORY' in 'hipMalloc:1:CUDA_ERROR_OUT_OF_MEMORY' is not an error of this API
// DEVICES:      gpu-runner CUDA driver stand-in: GPU_RUNNER_STANDIN_DEVICES=0 is not a device count from 1 to 16

func.func @main() {
  %m = gpu.alloc () : memref<4xf32>
  gpu.dealloc %m : memref<4xf32>
  return
}
