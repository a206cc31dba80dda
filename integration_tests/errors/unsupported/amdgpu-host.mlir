// The host backend refuses AMD's own kernel ops by name, before anything
// runs; gpu-runner-hip compiles them (hip/amdgpu.mlir).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: amdgpu-host.mlir:[[# @LINE + 1]]:5: error: 'amdgpu.lds_barrier' cannot run on the host backend: it is an AMD GPU operation; gpu-runner-hip compiles it
    amdgpu.lds_barrier
    gpu.terminator
  }
  return
}
