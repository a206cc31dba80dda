// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-check-bounds))' %s | FileCheck %s

// Each memref access of a kernel is preceded by a call that gets the
// element's address and size, the first index outside the shape, the thread
// and block ids, and the op's loc string.

// CHECK-DAG: memref.global "private" constant @[[LOAD_LOC:__gpu_runner_check_loc[_0-9]*]] : memref<{{[0-9]+}}xi8> = dense<[109, 101, 109, 114, 101, 102, 46, 108, 111, 97, 100, 64,
// CHECK-DAG: memref.global "private" constant @[[STORE_LOC:__gpu_runner_check_loc[_0-9]*]] : memref<{{[0-9]+}}xi8> = dense<[109, 101, 109, 114, 101, 102, 46, 115, 116, 111, 114, 101, 64,
// CHECK-DAG: func.func private @mgpuHostCheckAccessAt(index, index, i32, i32, index, index, index, index, index, index, index, index, index)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @k(
    // CHECK-SAME: %[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index
    gpu.func @k(%m: memref<4x8xf32>, %i: index, %j: index) kernel {
      // CHECK: %{{.*}}, %[[OFFSET:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[M]]
      // CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
      // CHECK: arith.muli %[[J]], %[[STRIDES]]#1
      // CHECK: arith.cmpi sge, %[[J]], %[[SIZES]]#1
      // CHECK: arith.muli %[[I]], %[[STRIDES]]#0
      // CHECK: arith.cmpi sge, %[[I]], %[[SIZES]]#0
      // CHECK: %[[FOUR:.*]] = arith.constant 4 : index
      // CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %[[FOUR]]
      // CHECK: %[[ADDRESS:.*]] = arith.addi %[[BASE]], %[[SCALED]]
      // CHECK: %[[LOAD:.*]] = arith.constant 0 : i32
      // CHECK-NEXT: %[[TX:.*]] = gpu.thread_id x
      // CHECK: %[[TY:.*]] = gpu.thread_id y
      // CHECK: %[[TZ:.*]] = gpu.thread_id z
      // CHECK: %[[BX:.*]] = gpu.block_id x
      // CHECK: %[[BY:.*]] = gpu.block_id y
      // CHECK: %[[BZ:.*]] = gpu.block_id z
      // CHECK: %[[LOC:.*]] = memref.get_global @[[LOAD_LOC]]
      // CHECK: %[[LOC_ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[LOC]]
      // CHECK: func.call @mgpuHostCheckAccessAt(%[[ADDRESS]], %[[FOUR]], %[[LOAD]], %{{.*}}, %{{.*}}, %{{.*}}, %[[TX]], %[[TY]], %[[TZ]], %[[BX]], %[[BY]], %[[BZ]], %[[LOC_ADDRESS]])
      // CHECK-NEXT: memref.load %[[M]][%[[I]], %[[J]]]
      %v = memref.load %m[%i, %j] : memref<4x8xf32>
      // CHECK: arith.constant 4 : index
      // CHECK-NEXT: arith.muli
      // CHECK-NEXT: arith.addi
      // CHECK-NEXT: %[[STORE:.*]] = arith.constant 1 : i32
      // CHECK-NEXT: gpu.thread_id x
      // CHECK: memref.get_global @[[STORE_LOC]]
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %[[STORE]],
      // CHECK-NEXT: memref.store
      memref.store %v, %m[%j, %i] : memref<4x8xf32>
      gpu.return
    }
  }
}
