// An nvgpu op in host code is refused by name: gpu-runner lowers the
// dialect in kernels only (cuda/nvgpu.mlir).
// REQUIRES: cuda-runner
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %v = arith.constant dense<2.0> : vector<4xf32>
  // CHECK: nvgpu-host-code.mlir:[[# @LINE + 1]]:8: error: 'nvgpu.rcp' in host code has no lowering in gpu-runner: the nvgpu and amdgpu dialects are lowered in kernels only (TMA descriptors, which host code makes, need the CUDA driver's tensor maps)
  %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<4xf32>
  vector.print %r : vector<4xf32>
  return
}
