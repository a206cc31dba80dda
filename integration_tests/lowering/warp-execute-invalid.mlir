// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-lower-warp-execute))' --split-input-file --verify-diagnostics %s

// The forms of gpu.warp_execute_on_lane_0 that gpu-runner-lower-warp-execute
// refuses, each at the op.

// A warp wider than the subgroup: its lanes could not meet at one
// synchronization of a subgroup (hip/warp-execute.mlir: a wave64 AMD GPU
// takes it).
gpu.module @kernels {
  gpu.func @wide(%out: memref<64xf32>) kernel {
    %lane = gpu.lane_id
    // expected-error @below {{a warp of 64 lanes is not supported: its lanes exchange values through memory between synchronizations of one subgroup, so a warp must be the target's subgroup of 32 lanes or divide it}}
    %r = gpu.warp_execute_on_lane_0(%lane)[64] -> (f32) {
      %c = arith.constant 1.0 : f32
      gpu.yield %c : f32
    }
    gpu.return
  }
}

// -----

// A warp of 24 lanes does not divide the subgroup of 32.
gpu.module @kernels {
  gpu.func @odd(%out: memref<64xf32>) kernel {
    %lane = gpu.lane_id
    // expected-error @below {{a warp of 24 lanes is not supported}}
    %r = gpu.warp_execute_on_lane_0(%lane)[24] -> (f32) {
      %c = arith.constant 1.0 : f32
      gpu.yield %c : f32
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @nested(%out: memref<64xf32>) kernel {
    %lane = gpu.lane_id
    %r = gpu.warp_execute_on_lane_0(%lane)[32] -> (f32) {
      // expected-error @below {{a gpu.warp_execute_on_lane_0 inside another is not supported: only lane 0 runs the outer one's body}}
      %s = gpu.warp_execute_on_lane_0(%lane)[32] -> (f32) {
        %c = arith.constant 1.0 : f32
        gpu.yield %c : f32
      }
      gpu.yield %s : f32
    }
    gpu.return
  }
}

// -----

// Only a kernel has workgroup memory of its own to carry the values.
gpu.module @kernels {
  gpu.func @helper() -> f32 {
    %lane = gpu.lane_id
    // expected-error @below {{gpu.warp_execute_on_lane_0 is supported in the body of a gpu.func kernel only, whose workgroup memory carries the values between the lanes; inline the function that holds it into the kernel}}
    %r = gpu.warp_execute_on_lane_0(%lane)[32] -> (f32) {
      %c = arith.constant 1.0 : f32
      gpu.yield %c : f32
    }
    gpu.return %r : f32
  }
}
