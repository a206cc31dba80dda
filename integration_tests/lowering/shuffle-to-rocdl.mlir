// gpu-runner-shuffle-to-rocdl: each lane computes its source lane and
// whether it is valid, among w = min(width, lanes of the wave that exist),
// and reads it with a shuffle of the whole wave, which upstream's ROCDL
// lowering makes a ds_bpermute of a lane that is always active. Upstream's
// own lowering of the up shuffle below calls lanes 0 to 2 valid and reads
// lanes 61 to 63.
// RUN: %gpu-runner-opt --gpu-runner-shuffle-to-rocdl %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-shuffle-to-rocdl=wave-size=32 %s | FileCheck %s --check-prefix=WAVE32
// RUN: not %gpu-runner-opt --gpu-runner-shuffle-to-rocdl=wave-size=48 %s 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: gpu-runner-shuffle-to-rocdl: a wave has 32 or 64 lanes, not 48

gpu.module @kernels {
  // CHECK-LABEL: func.func @up
  // CHECK-SAME:    (%[[V:.*]]: f32, %[[OFFSET:.*]]: i32, %[[WIDTH:.*]]: i32)
  // CHECK:         %[[LANE:.*]] = gpu.lane_id
  // CHECK:         %[[LANE32:.*]] = arith.index_cast %[[LANE]] : index to i32
  // The lanes of the wave that exist: min(64, threads - the wave's first).
  // CHECK:         arith.remui %{{.*}}, %c64 : index
  // CHECK:         %[[PRESENT:.*]] = arith.minui %c64, %{{.*}} : index
  // CHECK:         %[[PRESENT32:.*]] = arith.index_cast %[[PRESENT]] : index to i32
  // CHECK:         %[[W:.*]] = arith.minui %[[WIDTH]], %[[PRESENT32]] : i32
  // CHECK:         %[[SRC:.*]] = arith.subi %[[LANE32]], %[[OFFSET]] : i32
  // CHECK:         %[[IN:.*]] = arith.cmpi ult, %[[LANE32]], %[[W]] : i32
  // CHECK:         %[[FROM_IN:.*]] = arith.cmpi ult, %[[SRC]], %[[W]] : i32
  // CHECK:         %[[VALID:.*]] = arith.andi %[[IN]], %[[FROM_IN]] : i1
  // CHECK:         %[[FROM:.*]] = arith.select %[[VALID]], %[[SRC]], %[[LANE32]] : i32
  // CHECK:         %[[READ:.*]], %{{.*}} = gpu.shuffle  idx %[[V]], %[[FROM]], %c64_i32 : f32
  // CHECK:         %[[R:.*]] = arith.select %[[VALID]], %[[READ]], %[[V]] : f32
  // CHECK:         return %[[R]], %[[VALID]] : f32, i1
  // WAVE32-LABEL: func.func @up
  // WAVE32:         arith.remui %{{.*}}, %c32 : index
  // WAVE32:         gpu.shuffle  idx %{{.*}}, %{{.*}}, %c32_i32 : f32
  func.func @up(%v: f32, %offset: i32, %width: i32) -> (f32, i1) {
    %r, %ok = gpu.shuffle up %v, %offset, %width : f32
    return %r, %ok : f32, i1
  }

  // The other modes' sources: lane ^ offset, lane + offset, offset.
  // CHECK-LABEL: func.func @modes
  // CHECK:         arith.xori %{{.*}}, %c5_i32 : i32
  // CHECK:         gpu.shuffle  idx
  // CHECK:         arith.addi %{{.*}}, %c3_i32 : i32
  // CHECK:         gpu.shuffle  idx
  // CHECK:         arith.cmpi ult, %c7_i32, %{{.*}} : i32
  // CHECK:         arith.select %{{.*}}, %c7_i32, %{{.*}} : i32
  // CHECK:         gpu.shuffle  idx %{{.*}}, %{{.*}}, %c64_i32{{.*}} : i64
  func.func @modes(%a: i32, %b: f64, %c: i64) -> (i32, f64, i64) {
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    %c20 = arith.constant 20 : i32
    %x, %xok = gpu.shuffle xor %a, %c5, %c20 : i32
    %d, %dok = gpu.shuffle down %b, %c3, %c20 : f64
    %i, %iok = gpu.shuffle idx %c, %c7, %c20 : i64
    return %x, %d, %i : i32, f64, i64
  }
}
