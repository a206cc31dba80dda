// Flags that choose what kernels are compiled for are checked before
// anything is compiled.
// REQUIRES: cuda-runner
// RUN: not %gpu-runner-cuda --compile-only --gpu-chip=sm_50 %s 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not %gpu-runner-cuda --compile-only --gpu-chip=gfx90a %s 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: not %gpu-runner-cuda --compile-only --device=-1 %s 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not %gpu-runner-host --gpu-chip=sm_90 %s 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not %gpu-runner-host --device=1 %s 2>&1 | FileCheck %s --check-prefix=HOSTDEVICE

// OLD: error: --gpu-chip=sm_50 is not a CUDA chip that CUDA 13 supports: use sm_75 or newer
// AMD: error: --gpu-chip=gfx90a is not a CUDA chip that CUDA 13 supports
// DEVICE: error: --device=-1 is negative; devices are numbered from 0
// HOST: error: --gpu-chip is for GPU backends; the host backend runs kernels on the CPU
// HOSTDEVICE: error: the host backend has one device, 0: there is no device 1

func.func @main() {
  return
}
