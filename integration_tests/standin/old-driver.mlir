// A library that is a CUDA driver or a HIP runtime (it has cuInit or
// hipInit) but lacks an entry point the backend needs is called too old,
// with the entry point it lacks; one that is neither is called that
// (load-errors.mlir). One clear error and status 1, before any call.
// REQUIRES: host-cxx, cuda-runner, hip-runner
// RUN: %host_cxx -shared -fPIC %S/Inputs/init-only-driver.cpp -o %t.so
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=%t.so %gpu-runner-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: %expect-exit-1 env GPU_RUNNER_HIP_RUNTIME=%t.so %gpu-runner-hip %s 2>&1 | FileCheck %s --check-prefix=HIP

// CUDA: error: the NVIDIA driver is too old: {{.*}}old-driver.mlir.tmp.so does not provide cuGetErrorName; gpu-runner-cuda needs a driver for CUDA 12.8 or newer
// CUDA-NOT: error:
// HIP: error: the HIP runtime is too old: {{.*}}old-driver.mlir.tmp.so does not provide hipGetErrorName
// HIP-NOT: error:

func.func @main() {
  %m = gpu.alloc () : memref<4xf32>
  gpu.dealloc %m : memref<4xf32>
  return
}
