// GPU_RUNNER_CUDA_DRIVER and GPU_RUNNER_HIP_RUNTIME name the library to load:
// one that cannot be opened, or one that lacks an entry point the backend
// needs, is one clear error and status 1. A stand-in given a setting it
// cannot use stops at once with status 2.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=%t.missing.so %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA-MISSING
// RUN: %expect-exit-1 env GPU_RUNNER_HIP_RUNTIME=%t.missing.so %gpu-runner-hip %s 2>&1 | FileCheck %s --check-prefix=HIP-MISSING
// A library of another kind (the other vendor's, the C math library) is
// not called an old one.
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=%hip-standin-lib %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA-OTHER
// RUN: %expect-exit-1 env GPU_RUNNER_HIP_RUNTIME=%cuda-standin-lib %gpu-runner-hip %s 2>&1 | FileCheck %s --check-prefix=HIP-OTHER
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=libm.so.6 %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA-LIBM
// RUN: %expect-exit-1 env GPU_RUNNER_HIP_RUNTIME=libm.so.6 %gpu-runner-hip %s 2>&1 | FileCheck %s --check-prefix=HIP-LIBM
// A name without a slash that is a file in the current folder is loaded
// from there; one that is not is still reported as not found.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && ln -s %cuda-standin-lib %t.dir/standin.so && ln -s %hip-standin-lib %t.dir/hip-standin.so
// RUN: cd %t.dir && env GPU_RUNNER_CUDA_DRIVER=standin.so GPU_RUNNER_STANDIN_LEAK_EXITCODE=24 %gpu-runner-cuda %s
// RUN: cd %t.dir && env GPU_RUNNER_HIP_RUNTIME=hip-standin.so GPU_RUNNER_STANDIN_LEAK_EXITCODE=24 %gpu-runner-hip %s
// RUN: cd %t.dir && %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=absent-standin.so %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA-ABSENT
// RUN: env GPU_RUNNER_STANDIN_FAULTS=cuMemAlloc:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1; test $? -eq 2
// RUN: not env GPU_RUNNER_STANDIN_FAULTS=cuMemAlloc:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --check-prefix=UNVERSIONED
// RUN: not env GPU_RUNNER_STANDIN_FAULTS=hipMalloc:0:hipErrorOutOfMemory %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --check-prefix=CALL-ZERO
// RUN: not env GPU_RUNNER_STANDIN_FAULTS=hipMalloc:1:CUDA_ERROR_OUT_OF_MEMORY %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --check-prefix=WRONG-API
// RUN: not env GPU_RUNNER_STANDIN_DEVICES=0 %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --check-prefix=DEVICES

// CUDA-MISSING: error: GPU_RUNNER_CUDA_DRIVER={{.*}}.missing.so could not be loaded ({{.*}}No such file or directory)
// HIP-MISSING:  error: GPU_RUNNER_HIP_RUNTIME={{.*}}.missing.so could not be loaded ({{.*}}No such file or directory)
// CUDA-OTHER:   error: GPU_RUNNER_CUDA_DRIVER={{.*}}libgpu-runner-hip-standin.so is not a CUDA driver: it provides neither cuInit nor cuDriverGetVersion
// HIP-OTHER:    error: GPU_RUNNER_HIP_RUNTIME={{.*}}libgpu-runner-cuda-standin.so is not a HIP runtime: it provides neither hipInit nor hipRuntimeGetVersion
// CUDA-LIBM:    error: GPU_RUNNER_CUDA_DRIVER=libm.so.6 is not a CUDA driver: it provides neither cuInit nor cuDriverGetVersion
// HIP-LIBM:     error: GPU_RUNNER_HIP_RUNTIME=libm.so.6 is not a HIP runtime: it provides neither hipInit nor hipRuntimeGetVersion
// CUDA-ABSENT:  error: GPU_RUNNER_CUDA_DRIVER=absent-standin.so could not be loaded (absent-standin.so: {{.*}}No such file or directory)
// UNVERSIONED:  gpu-runner CUDA driver stand-in: GPU_RUNNER_STANDIN_FAULTS: 'cuMemAlloc' is not an entry point the library exports (versioned entry points carry their suffix: cuMemAlloc_v2)
// CALL-ZERO:    gpu-runner HIP runtime stand-in: GPU_RUNNER_STANDIN_FAULTS: '0' in 'hipMalloc:0:hipErrorOutOfMemory' is not a call number (1 is the first call)
// WRONG-API:    gpu-runner HIP runtime stand-in: GPU_RUNNER_STANDIN_FAULTS: 'CUDA_ERROR_OUT_OF_MEMORY' in 'hipMalloc:1:CUDA_ERROR_OUT_OF_MEMORY' is not an error of this API
// DEVICES:      gpu-runner CUDA driver stand-in: GPU_RUNNER_STANDIN_DEVICES=0 is not a device count from 1 to 16

func.func @main() {
  %m = gpu.alloc () : memref<4xf32>
  gpu.dealloc %m : memref<4xf32>
  return
}
