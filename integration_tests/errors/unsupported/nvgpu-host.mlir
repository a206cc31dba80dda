// The host backend refuses NVIDIA's own kernel ops by name, before anything
// runs: sm_80's (mma.sync, ldmatrix, cp.async) for now, and sm_90's
// asynchronous operations (TMA, transaction barriers, warpgroup mma),
// which it does not model. gpu-runner-cuda compiles both
// (cuda/nvgpu.mlir, cuda/nvgpu-sm90a.mlir).
// RUN: %expect-exit-1 %gpu-runner --split-input-file %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %c1 = arith.constant 1 : index
  %out = gpu.alloc () : memref<2x2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = arith.constant dense<1.0> : vector<4x2xf16>
    %b = arith.constant dense<1.0> : vector<2x2xf16>
    %c = arith.constant dense<0.0> : vector<2x2xf32>
    // CHECK: nvgpu-host.mlir:[[# @LINE + 1]]:10: error: 'nvgpu.mma.sync' cannot run on the host backend yet: the host has no lowering of the nvgpu dialect; gpu-runner-cuda compiles it for sm_80 and newer
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    vector.store %d, %out[%c0, %c0] : memref<2x2xf32>, vector<2x2xf32>
    gpu.terminator
  }
  return
}

// -----

!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: nvgpu-host.mlir:[[# @LINE + 1]]:12: error: 'nvgpu.mbarrier.create' cannot run on the host backend: it is one of sm_90's asynchronous operations (TMA copies, transaction barriers, warpgroup mma), which the host does not model; gpu-runner-cuda compiles it for sm_90a
    %bar = nvgpu.mbarrier.create -> !barrier
    gpu.terminator
  }
  return
}
