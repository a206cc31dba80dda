// Without the NVIDIA driver, gpu-runner-cuda starts, says what is missing,
// and exits with status 1; --version and --help still work.
// UNSUPPORTED: cuda-device
// REQUIRES: cuda-runner
// RUN: not %gpu-runner-cuda %s 2>&1 | FileCheck %s
// RUN: %gpu-runner-cuda %s; test $? -eq 1
// RUN: not %gpu-runner-cuda --list-devices 2>&1 | FileCheck %s
// RUN: %gpu-runner-cuda --version | FileCheck %s --check-prefix=VERSION
// RUN: %gpu-runner-cuda --help | FileCheck %s --check-prefix=HELP

// CHECK: error: the NVIDIA driver is not installed: libcuda.so.1 could not be loaded
// CHECK-SAME: gpu-runner-host runs them on the CPU
// VERSION: backend: cuda
// HELP: --compile-only
// HELP: --device=<N>
// HELP: --dump-gpu-binary=<DIR>
// HELP: --gpu-chip=<chip>
// HELP: --list-devices

func.func @main() {
  %c0 = arith.constant 0 : i8
  %a = gpu.alloc () : memref<4xi8>
  gpu.memset %a, %c0 : memref<4xi8>, i8
  gpu.dealloc %a : memref<4xi8>
  return
}
