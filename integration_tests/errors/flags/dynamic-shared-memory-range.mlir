// --dynamic-shared-memory is the i32 a launch takes (gpu.launch_func's
// dynamicSharedMemorySize, cuLaunchKernel's sharedMemBytes as CUDA checks
// it): a size above 2147483647 is refused naming the limit, not wrapped
// around to a negative size.
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::k --grid=1 --block=1 --dynamic-shared-memory=4294967295 2>&1 | FileCheck %s --check-prefix=MAX-UINT
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::k --grid=1 --block=1 --dynamic-shared-memory=2147483648 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::k --grid=1 --block=1 --dynamic-shared-memory=4294967296 2>&1 | FileCheck %s --check-prefix=HUGE

// MAX-UINT: error: --dynamic-shared-memory=4294967295 is more than 2147483647 bytes, the most a launch's dynamic shared memory size (an i32) holds
// MAX-UINT-NOT: negative
// OVER: error: --dynamic-shared-memory=2147483648 is more than 2147483647 bytes
// HUGE: error: --dynamic-shared-memory: '4294967296' is not a whole number from 0 to 4294967295

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
