// On AMD's wave64 chips a subgroup has 64 lanes: a rotation of 64 lanes is
// one shuffle over all of them, and lane 63 is a lane to broadcast from.
// RUN: %gpu-runner-opt --gpu-runner-lower-gpu-reductions=subgroup-size=64 %s | FileCheck %s

gpu.module @kernels {
  // CHECK-LABEL: func.func @wide
  func.func @wide(%v: f32) -> (f32, i1, f32) {
    // CHECK:         %[[LANE:.*]] = arith.remui %{{.*}}, %c64 : index
    // CHECK:         %[[LANE32:.*]] = arith.index_cast %[[LANE]] : index to i32
    // CHECK:         %[[SUM:.*]] = arith.addi %[[LANE32]], %c1_i32 : i32
    // CHECK:         %[[SRC:.*]] = arith.andi %[[SUM]], %c63_i32 : i32
    // CHECK-NOT:     scf.if
    // CHECK:         gpu.shuffle idx %{{.*}}, %[[SRC]], %c64_i32
    %r, %ok = gpu.rotate %v, 1, 64 : f32
    %c63 = arith.constant 63 : i32
    // CHECK:         gpu.subgroup_broadcast %{{.*}}, specific_lane %c63_i32 : f32
    %b = gpu.subgroup_broadcast %v, specific_lane %c63 : f32
    return %r, %ok, %b : f32, i1, f32
  }
}
