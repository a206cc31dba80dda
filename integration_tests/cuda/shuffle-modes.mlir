// gpu.shuffle in every mode, at width 8, 32 and one known only at run time,
// as shfl.sync operands that give the dialect's answers by the PTX ISA's
// pseudo-code of shfl.sync (c[4:0] the clamp, c[12:8] the segment mask; a
// source lane j is valid when j <= maxLane for down, bfly and idx and
// j >= maxLane for up, where maxLane = (lane & segmask) | (clamp &
// ~segmask)). Only the first w = min(width, lanes of the warp that exist)
// lanes execute the shfl.sync ("The behavior of shfl.sync is undefined if
// the executing thread is not in the membermask"), whose member mask is
// those lanes, -1 >> (32 - w); the others keep their value, not valid.
// xor, down and idx: c = w - 1, no segments, so a source is valid when it
// is below w. up: c = 0, so a source is valid when it is not below lane 0
// (c = 32 - width, upstream's, made every lane below the width keep its
// own value).
// REQUIRES: cuda-runner
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %s 2>&1 | FileCheck %s

// CHECK-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// CHECK-LABEL: llvm.func @shuffles
// CHECK-SAME:    %[[W:[^:]*]]: i32)
// CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:     %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK-DAG:     %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG:     %[[TID:.*]] = llvm.trunc %{{.*}} : i64 to i32
// xor, width 8: w = min(8, lanes that exist), members -1 >> (32 - w), c = w - 1.
// CHECK:         %[[W1:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[EIGHT]] : i1, i32
// CHECK:         %[[IN1:.*]] = llvm.icmp "ult" %{{.*}}, %[[W1]] : i32
// CHECK:         llvm.cond_br %[[IN1]], ^[[S1:.*]], ^[[K1:[^ ]*]]
// CHECK:       ^[[S1]]:
// CHECK:         %[[U1:.*]] = llvm.sub %{{.*}}, %[[W1]] : i32
// CHECK:         %[[M1:.*]] = llvm.lshr %{{.*}}, %[[U1]] : i32
// CHECK:         %[[C1:.*]] = llvm.sub %[[W1]], %{{.*}} : i32
// CHECK:         nvvm.shfl.sync bfly %[[M1]], %{{.*}}, %{{.*}}, %[[C1]] {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// The lanes at or past w: their own value, not valid.
// CHECK:       ^[[K1]]:
// CHECK-NEXT:    llvm.br ^{{.*}}(%[[TID]], %[[FALSE]] : i32, i1)
// down, width 8: c = w - 1.
// CHECK:         %[[W2:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[EIGHT]] : i1, i32
// CHECK:         %[[IN2:.*]] = llvm.icmp "ult" %{{.*}}, %[[W2]] : i32
// CHECK:         llvm.cond_br %[[IN2]], ^[[S2:.*]], ^[[K2:[^ ]*]]
// CHECK:       ^[[S2]]:
// CHECK:         %[[U2:.*]] = llvm.sub %{{.*}}, %[[W2]] : i32
// CHECK:         %[[M2:.*]] = llvm.lshr %{{.*}}, %[[U2]] : i32
// CHECK:         %[[C2:.*]] = llvm.sub %[[W2]], %{{.*}} : i32
// CHECK:         nvvm.shfl.sync down %[[M2]], %{{.*}}, %{{.*}}, %[[C2]] {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// up, width 8: c = 0.
// CHECK:         %[[W3:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[EIGHT]] : i1, i32
// CHECK:         %[[IN3:.*]] = llvm.icmp "ult" %{{.*}}, %[[W3]] : i32
// CHECK:         llvm.cond_br %[[IN3]], ^[[S3:.*]], ^[[K3:[^ ]*]]
// CHECK:       ^[[S3]]:
// CHECK:         %[[U3:.*]] = llvm.sub %{{.*}}, %[[W3]] : i32
// CHECK:         %[[M3:.*]] = llvm.lshr %{{.*}}, %[[U3]] : i32
// CHECK:         nvvm.shfl.sync up %[[M3]], %{{.*}}, %{{.*}}, %[[ZERO]] {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// idx, width 8: c = w - 1.
// CHECK:         %[[W4:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[EIGHT]] : i1, i32
// CHECK:         %[[IN4:.*]] = llvm.icmp "ult" %{{.*}}, %[[W4]] : i32
// CHECK:         llvm.cond_br %[[IN4]], ^[[S4:.*]], ^[[K4:[^ ]*]]
// CHECK:       ^[[S4]]:
// CHECK:         %[[U4:.*]] = llvm.sub %{{.*}}, %[[W4]] : i32
// CHECK:         %[[M4:.*]] = llvm.lshr %{{.*}}, %[[U4]] : i32
// CHECK:         %[[C4:.*]] = llvm.sub %[[W4]], %{{.*}} : i32
// CHECK:         nvvm.shfl.sync idx %[[M4]], %{{.*}}, %{{.*}}, %[[C4]] {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// up, width 32, f32: c = 0.
// CHECK:         %[[W5:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK:         %[[IN5:.*]] = llvm.icmp "ult" %{{.*}}, %[[W5]] : i32
// CHECK:         llvm.cond_br %[[IN5]], ^[[S5:.*]], ^[[K5:[^ ]*]]
// CHECK:       ^[[S5]]:
// CHECK:         %[[U5:.*]] = llvm.sub %{{.*}}, %[[W5]] : i32
// CHECK:         %[[M5:.*]] = llvm.lshr %{{.*}}, %[[U5]] : i32
// CHECK:         nvvm.shfl.sync up %[[M5]], %{{.*}}, %{{.*}}, %[[ZERO]] {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
// up and down, the width an argument: c = 0, and c = w - 1.
// CHECK:         %[[W6:.*]] = llvm.select %{{.*}}, %[[W]], %{{.*}} : i1, i32
// CHECK:         %[[IN6:.*]] = llvm.icmp "ult" %{{.*}}, %[[W6]] : i32
// CHECK:         llvm.cond_br %[[IN6]], ^[[S6:.*]], ^[[K6:[^ ]*]]
// CHECK:       ^[[S6]]:
// CHECK:         %[[U6:.*]] = llvm.sub %{{.*}}, %[[W6]] : i32
// CHECK:         %[[M6:.*]] = llvm.lshr %{{.*}}, %[[U6]] : i32
// CHECK:         nvvm.shfl.sync up %[[M6]], %{{.*}}, %{{.*}}, %[[ZERO]] {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// CHECK:         %[[W7:.*]] = llvm.select %{{.*}}, %[[W]], %{{.*}} : i1, i32
// CHECK:         %[[IN7:.*]] = llvm.icmp "ult" %{{.*}}, %[[W7]] : i32
// CHECK:         llvm.cond_br %[[IN7]], ^[[S7:.*]], ^[[K7:[^ ]*]]
// CHECK:       ^[[S7]]:
// CHECK:         %[[U7:.*]] = llvm.sub %{{.*}}, %[[W7]] : i32
// CHECK:         %[[M7:.*]] = llvm.lshr %{{.*}}, %[[U7]] : i32
// CHECK:         %[[C7:.*]] = llvm.sub %[[W7]], %{{.*}} : i32
// CHECK:         nvvm.shfl.sync down %[[M7]], %{{.*}}, %{{.*}}, %[[C7]] {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// CHECK-LABEL: IR Dump After

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shuffles(%out: memref<32x14xi32>, %width: i32) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %one = arith.constant 1 : i32
      %eight = arith.constant 8 : i32
      %thirtyTwo = arith.constant 32 : i32
      %x, %xv = gpu.shuffle xor %v, %one, %eight : i32
      %d, %dv = gpu.shuffle down %v, %one, %eight : i32
      %u, %uv = gpu.shuffle up %v, %one, %eight : i32
      %i, %iv = gpu.shuffle idx %v, %one, %eight : i32
      %f = arith.sitofp %v : i32 to f32
      %uf, %ufv = gpu.shuffle up %f, %one, %thirtyTwo : f32
      %ufi = arith.fptosi %uf : f32 to i32
      %uw, %uwv = gpu.shuffle up %v, %one, %width : i32
      %dw, %dwv = gpu.shuffle down %v, %one, %width : i32
      %values = vector.from_elements %x, %d, %u, %i, %ufi, %uw, %dw : vector<7xi32>
      %flags = vector.from_elements %xv, %dv, %uv, %iv, %ufv, %uwv, %dwv : vector<7xi1>
      %wide = arith.extui %flags : vector<7xi1> to vector<7xi32>
      %c0 = arith.constant 0 : index
      %c7 = arith.constant 7 : index
      vector.store %values, %out[%tid, %c0] : memref<32x14xi32>, vector<7xi32>
      vector.store %wide, %out[%tid, %c7] : memref<32x14xi32>, vector<7xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %width = arith.constant 16 : i32
    %out = gpu.alloc () : memref<32x14xi32>
    gpu.launch_func @kernels::@shuffles blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%out : memref<32x14xi32>, %width : i32)
    gpu.dealloc %out : memref<32x14xi32>
    return
  }
}
