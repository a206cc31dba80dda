// Without an AMD GPU (or without ROCm), gpu-runner-hip starts, says what is
// missing, and exits with status 1; --version and --help still work.
// UNSUPPORTED: hip-device
// REQUIRES: hip-runner
// RUN: not %gpu-runner-hip %s 2>&1 | FileCheck %s
// RUN: %gpu-runner-hip %s; test $? -eq 1
// RUN: not %gpu-runner-hip --list-devices 2>&1 | FileCheck %s
// RUN: %gpu-runner-hip --version | FileCheck %s --check-prefix=VERSION
// RUN: not %gpu-runner-hip --compile-only --gpu-chip=sm_90 %s 2>&1 | FileCheck %s --check-prefix=CHIP

// CHECK: error: {{(the HIP runtime is not installed|no HIP device)}}
// CHECK-SAME: {{gpu-runner-host runs them on the CPU|sees no GPU}}
// VERSION: backend: hip
// CHIP: error: --gpu-chip=sm_90 is not an AMD GPU: use its gfx name, such as gfx90a or gfx942

func.func @main() {
  %c0 = arith.constant 0 : i8
  %a = gpu.alloc () : memref<4xi8>
  gpu.memset %a, %c0 : memref<4xi8>, i8
  gpu.dealloc %a : memref<4xi8>
  return
}
