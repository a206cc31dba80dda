// What the verifier lets through but no target can do with gpu.rotate and
// gpu.subgroup_broadcast, refused at the op.
// RUN: %gpu-runner-opt --gpu-runner-lower-gpu-reductions --split-input-file --verify-diagnostics %s

gpu.module @kernels {
  // A rotation of 64 lanes fits in AMD's wave64 subgroups only
  // (rotate-wave64.mlir).
  func.func @wide(%v: f32) -> (f32, i1) {
    // expected-error @below {{a rotation of width 64 does not fit in a subgroup of 32 lanes}}
    %r, %ok = gpu.rotate %v, 1, 64 : f32
    return %r, %ok : f32, i1
  }
}

// -----

gpu.module @kernels {
  func.func @lane(%v: f32) -> f32 {
    %c32 = arith.constant 32 : i32
    // expected-error @below {{lane 32 is not in the subgroup of 32 lanes (0 to 31): the broadcast's result would be poison}}
    %b = gpu.subgroup_broadcast %v, specific_lane %c32 : f32
    return %b : f32
  }
}

// -----

gpu.module @kernels {
  func.func @negative(%v: f32) -> f32 {
    %m1 = arith.constant -1 : i32
    // expected-error @below {{lane -1 is not in the subgroup of 32 lanes (0 to 31)}}
    %b = gpu.subgroup_broadcast %v, specific_lane %m1 : f32
    return %b : f32
  }
}

// -----

gpu.module @kernels {
  func.func @memref(%m: memref<4xf32>) -> memref<4xf32> {
    // expected-error @below {{'gpu.subgroup_broadcast' cannot move a value of type 'memref<4xf32>' between lanes: it takes integers, floats and index of at most 64 bits, and vectors of rank 1 of those}}
    %b = gpu.subgroup_broadcast %m, first_active_lane : memref<4xf32>
    return %b : memref<4xf32>
  }
}

// -----

gpu.module @kernels {
  func.func @matrix(%v: vector<2x2xf32>) -> vector<2x2xf32> {
    // expected-error @below {{'gpu.subgroup_broadcast' cannot move a value of type 'vector<2x2xf32>' between lanes}}
    %b = gpu.subgroup_broadcast %v, first_active_lane : vector<2x2xf32>
    return %b : vector<2x2xf32>
  }
}

// -----

gpu.module @kernels {
  func.func @wide_integer(%v: i128) -> (i128, i1) {
    // expected-error @below {{'gpu.rotate' cannot move a value of type 'i128' between lanes}}
    %r, %ok = gpu.rotate %v, 1, 32 : i128
    return %r, %ok : i128, i1
  }
}
