// A gpu.warp_execute_on_lane_0 of 64 lanes stops before the program runs on
// the host backend and on NVIDIA GPUs, whose subgroups have 32 lanes: its
// lanes could not meet at one synchronization of a subgroup. AMD's wave64
// chips run it (hip/warp-execute.mlir).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @wide(%out: memref<64xf32>) kernel {
      %lane = gpu.lane_id
      // CHECK: warp-execute-too-wide.mlir:[[@LINE+2]]:12: error: a warp of 64 lanes is not supported: its lanes exchange values through memory between synchronizations of one subgroup, so a warp must be the target's subgroup of 32 lanes or divide it
      // WAVE32: warp-execute-too-wide.mlir:[[@LINE+1]]:12: error: a warp of 64 lanes is not supported: {{.*}} subgroup of 32 lanes or divide it
      %r = gpu.warp_execute_on_lane_0(%lane)[64] -> (f32) {
        %c = arith.constant 1.0 : f32
        gpu.yield %c : f32
      }
      %t = gpu.thread_id x
      memref.store %r, %out[%t] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@wide blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    gpu.dealloc %out : memref<64xf32>
    return
  }
}
