// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-check-bounds{mark-barriers=true}))' %s | FileCheck %s

// racecheck: each gpu.barrier is followed by a call with the thread's ids,
// which counts the thread's barrier intervals. A 1-D vector store is checked
// for its first element and the bytes of all its elements (4 x 4). A write
// the checks cannot follow (vector.transfer_write) makes every kernel of
// the module start with a call per memref argument, its address and span.

// CHECK-DAG: func.func private @mgpuHostCheckBarrierAt(index, index, index)
// CHECK-DAG: func.func private @mgpuHostCheckUnseenWritesAt(index, index, index, index, index, index, index, index)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @k(
    gpu.func @k(%m: memref<16xf32>, %n: memref<4x4xf32>, %i: index) kernel {
      // CHECK: memref.extract_strided_metadata
      // CHECK: call @mgpuHostCheckUnseenWritesAt(
      // CHECK: call @mgpuHostCheckUnseenWritesAt(
      // CHECK: %[[SIXTEEN:.*]] = arith.constant 16 : index
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %[[SIXTEEN]],
      // CHECK-NEXT: vector.store
      %v = arith.constant dense<1.0> : vector<4xf32>
      vector.store %v, %m[%i] : memref<16xf32>, vector<4xf32>
      // CHECK: gpu.barrier
      // CHECK-NEXT: %[[X:.*]] = gpu.thread_id x
      // CHECK-NEXT: %[[Y:.*]] = gpu.thread_id y
      // CHECK-NEXT: %[[Z:.*]] = gpu.thread_id z
      // CHECK-NEXT: func.call @mgpuHostCheckBarrierAt(%[[X]], %[[Y]], %[[Z]])
      gpu.barrier
      %c0 = arith.constant 0 : index
      vector.transfer_write %v, %n[%i, %c0] {in_bounds = [true]} : vector<4xf32>, memref<4x4xf32>
      gpu.return
    }
  }
}
