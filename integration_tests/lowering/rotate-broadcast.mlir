// gpu.rotate becomes idx shuffles on every backend; gpu.subgroup_broadcast
// a runtime call on the host and shfl.sync among the active lanes on CUDA.
// RUN: %gpu-runner-opt --gpu-runner-lower-gpu-reductions %s | FileCheck %s --check-prefix=ROTATE
// RUN: %gpu-runner-opt --gpu-runner-lower-gpu-reductions --gpu-runner-host-kernels %s | FileCheck %s --check-prefix=HOST
// RUN: %gpu-runner-opt --gpu-runner-subgroup-broadcast-to-nvvm %s | FileCheck %s --check-prefix=NVVM

gpu.module @kernels {
  // ROTATE-LABEL: func.func @rotate
  // ROTATE-SAME:    (%[[V:.*]]: f32, %[[W:.*]]: vector<2xf64>)
  func.func @rotate(%v: f32, %w: vector<2xf64>)
      -> (f32, i1, f32, i1, vector<2xf64>, i1) {
    // The whole subgroup: lane k reads lane (k + 31) & 31, no branch.
    // ROTATE:     %[[LINEAR:.*]] = arith.addi %{{.*}}thread_id_x
    // ROTATE:     %[[LANE:.*]] = arith.remui %[[LINEAR]], %c32 : index
    // ROTATE:     %[[LANE32:.*]] = arith.index_cast %[[LANE]] : index to i32
    // ROTATE:     %[[SUM:.*]] = arith.addi %[[LANE32]], %c31_i32 : i32
    // ROTATE:     %[[SRC:.*]] = arith.andi %[[SUM]], %c31_i32 : i32
    // ROTATE:     %[[BITS:.*]] = arith.bitcast %[[V]] : f32 to i32
    // ROTATE:     %[[R:.*]], %[[OK:.*]] = gpu.shuffle idx %[[BITS]], %[[SRC]], %c32_i32 {gpu_runner.runtime_op_name = "gpu.rotate"} : i32
    // ROTATE:     %[[A:.*]] = arith.bitcast %[[R]] : i32 to f32
    %a, %ok = gpu.rotate %v, 31, 32 : f32
    // Narrower than the subgroup: only lanes below the width shuffle, among
    // themselves; the others keep their value, not valid.
    // ROTATE:     %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c8_i32 : i32
    // ROTATE:     %[[B:.*]]:2 = scf.if %[[IN]] -> (f32, i1) {
    // ROTATE:       arith.addi %{{.*}}, %c3_i32 : i32
    // ROTATE:       arith.andi %{{.*}}, %c7_i32 : i32
    // ROTATE:       gpu.shuffle idx %{{.*}}, %{{.*}}, %c8_i32 {gpu_runner.runtime_op_name = "gpu.rotate"} : i32
    // ROTATE:     } else {
    // ROTATE:       scf.yield %[[V]], %false : f32, i1
    %b, %ok2 = gpu.rotate %v, 3, 8 : f32
    // 128 bits: one 64-bit shuffle per element.
    // ROTATE:     scf.if %{{.*}} -> (vector<2xf64>, i1) {
    // ROTATE:       vector.extract %[[W]][0]
    // ROTATE:       gpu.shuffle idx %{{.*}}, %{{.*}}, %c2_i32 {gpu_runner.runtime_op_name = "gpu.rotate"} : i64
    // ROTATE:       vector.extract %[[W]][1]
    // ROTATE:       gpu.shuffle idx %{{.*}}, %{{.*}}, %c2_i32 {gpu_runner.runtime_op_name = "gpu.rotate"} : i64
    // ROTATE-NOT: gpu.rotate %
    %c, %ok3 = gpu.rotate %w, 1, 2 : vector<2xf64>
    // ROTATE:     return %[[A]], %[[OK]], %[[B]]#0, %[[B]]#1
    return %a, %ok, %b, %ok2, %c, %ok3
        : f32, i1, f32, i1, vector<2xf64>, i1
  }

  // HOST-LABEL:  func.func private @__gpu_runner_kernels_broadcast(
  // HOST-SAME:     %[[CTX:[^:]*]]: !llvm.ptr
  // HOST-SAME:     %[[V:[^:]*]]: f32, %[[LANE:[^:]*]]: i32, %[[I:[^:]*]]: index)
  // NVVM-LABEL:  func.func @broadcast
  // NVVM-SAME:     (%[[V:.*]]: f32, %[[LANE:.*]]: i32, %[[I:.*]]: index)
  func.func @broadcast(%v: f32, %lane: i32, %i: index) -> (f32, f32, index) {
    // HOST:        %[[FIRST:.*]] = arith.constant -1 : i32
    // HOST:        %[[BITS:.*]] = arith.bitcast %[[V]] : f32 to i32
    // HOST:        %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
    // HOST:        llvm.call @mgpuHostBroadcastAt(%[[CTX]], %[[WIDE]], %[[FIRST]], %{{.*}})
    // NVVM:        %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
    // NVVM:        %[[LOWEST:.*]] = "llvm.intr.cttz"(%[[MASK]]) <{is_zero_poison = true}> : (i32) -> i32
    // NVVM:        %[[BITS:.*]] = arith.bitcast %[[V]] : f32 to i32
    // NVVM:        nvvm.shfl.sync idx %[[MASK]], %[[BITS]], %[[LOWEST]], %c31_i32 : i32 -> i32
    %a = gpu.subgroup_broadcast %v, first_active_lane : f32
    // HOST:        llvm.call @mgpuHostBroadcastAt(%[[CTX]], %{{.*}}, %[[LANE]], %{{.*}})
    // NVVM:        %[[MASK2:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
    // NVVM:        nvvm.shfl.sync idx %[[MASK2]], %{{.*}}, %[[LANE]], %c31_i32 : i32 -> i32
    %b = gpu.subgroup_broadcast %v, specific_lane %lane : f32
    // An index: 64 bits, in two words on CUDA.
    // HOST:        %[[FIRST3:.*]] = arith.constant -1 : i32
    // HOST:        %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
    // HOST:        llvm.call @mgpuHostBroadcastAt(%[[CTX]], %[[I64]], %[[FIRST3]], %{{.*}})
    // NVVM:        %[[MASK3:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
    // NVVM:        %[[LOWEST3:.*]] = "llvm.intr.cttz"(%[[MASK3]])
    // NVVM:        %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
    // NVVM:        %[[LOW:.*]] = arith.trunci %[[I64]] : i64 to i32
    // NVVM:        %[[SHIFTED:.*]] = arith.shrui %[[I64]], %c32_i64 : i64
    // NVVM:        %[[HIGH:.*]] = arith.trunci %[[SHIFTED]] : i64 to i32
    // NVVM:        nvvm.shfl.sync idx %[[MASK3]], %[[LOW]], %[[LOWEST3]], %c31_i32
    // NVVM:        nvvm.shfl.sync idx %[[MASK3]], %[[HIGH]], %[[LOWEST3]], %c31_i32
    // NVVM-NOT:    gpu.subgroup_broadcast
    %c = gpu.subgroup_broadcast %i, first_active_lane : index
    return %a, %b, %c : f32, f32, index
  }
}
