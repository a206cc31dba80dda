// The verifier takes any power of two as gpu.rotate's width, but a
// rotation wider than the subgroup (32 lanes on the host and on NVIDIA
// GPUs) has no lanes to rotate through: an error at the op, before
// anything runs.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner --compile-only %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @wide(%out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %x = arith.constant 1.0 : f32
      // CHECK: rotate-too-wide.mlir:[[# @LINE + 1]]:20: error: a rotation of width 64 does not fit in a subgroup of 32 lanes
      %v, %valid = gpu.rotate %x, 1, 64 : f32
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@wide blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    gpu.dealloc %out : memref<64xf32>
    return
  }
}
