// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-check-bounds))' %s | FileCheck %s

// Each memref access of a kernel is preceded by a call that gets the
// element's address, size and required alignment, whether it is a store and
// what memory the IR says it is (HostAccessMemory: 1 a kernel argument, 2
// workgroup, 3 private, 4 a global of the module, 0 unknown), the first index
// outside the shape, the thread and block ids, and the op's loc string.

// The loc strings: "memref.load@..." and "memref.store@...".
// CHECK-DAG: memref.global "private" constant @{{__gpu_runner_check_loc[_0-9]*}} : memref<{{[0-9]+}}xi8> = dense<[109, 101, 109, 114, 101, 102, 46, 108, 111, 97, 100, 64,
// CHECK-DAG: memref.global "private" constant @{{__gpu_runner_check_loc[_0-9]*}} : memref<{{[0-9]+}}xi8> = dense<[109, 101, 109, 114, 101, 102, 46, 115, 116, 111, 114, 101, 64,
// CHECK-DAG: func.func private @mgpuHostCheckAccessAt(index, index, i32, i32, i32, index, index, index, index, index, index, index, index, index)
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
      // CHECK: %[[ALIGN:.*]] = arith.constant 4 : i32
      // CHECK-NEXT: %[[LOAD:.*]] = arith.constant 2 : i32
      // CHECK-NEXT: %[[TX:.*]] = gpu.thread_id x
      // CHECK: %[[TY:.*]] = gpu.thread_id y
      // CHECK: %[[TZ:.*]] = gpu.thread_id z
      // CHECK: %[[BX:.*]] = gpu.block_id x
      // CHECK: %[[BY:.*]] = gpu.block_id y
      // CHECK: %[[BZ:.*]] = gpu.block_id z
      // CHECK: %[[LOC:.*]] = memref.get_global @__gpu_runner_check_loc
      // CHECK: %[[LOC_ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[LOC]]
      // CHECK: func.call @mgpuHostCheckAccessAt(%[[ADDRESS]], %[[FOUR]], %[[ALIGN]], %[[LOAD]], %{{.*}}, %{{.*}}, %{{.*}}, %[[TX]], %[[TY]], %[[TZ]], %[[BX]], %[[BY]], %[[BZ]], %[[LOC_ADDRESS]])
      // CHECK-NEXT: memref.load %[[M]][%[[I]], %[[J]]]
      %v = memref.load %m[%i, %j] : memref<4x8xf32>
      // CHECK: arith.constant 4 : index
      // CHECK-NEXT: arith.muli
      // CHECK-NEXT: arith.addi
      // CHECK-NEXT: arith.constant 4 : i32
      // CHECK-NEXT: %[[STORE:.*]] = arith.constant 3 : i32
      // CHECK-NEXT: gpu.thread_id x
      // CHECK: memref.get_global @__gpu_runner_check_loc
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %{{.*}}, %[[STORE]],
      // CHECK-NEXT: memref.store
      memref.store %v, %m[%j, %i] : memref<4x8xf32>
      gpu.return
    }

    memref.global "private" constant @table : memref<4xi16> = dense<[1, 2, 3, 4]>

    // What each memref is a view of decides its memory; the alignment is the
    // element's size, up to 16 bytes.
    // CHECK-LABEL: gpu.func @kinds(
    gpu.func @kinds(%m: memref<16xi8>, %i: index)
        workgroup(%shared: memref<8xf64, #gpu.address_space<workgroup>>)
        private(%own: memref<2xvector<8xf32>, #gpu.address_space<private>>)
        kernel {
      // CHECK: %[[ALIGN1:.*]] = arith.constant 1 : i32
      // CHECK-NEXT: %[[ARGUMENT:.*]] = arith.constant 2 : i32
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %[[ALIGN1]], %[[ARGUMENT]],
      %view = memref.subview %m[4] [8] [1] : memref<16xi8> to memref<8xi8, strided<[1], offset: 4>>
      %b = memref.load %view[%i] : memref<8xi8, strided<[1], offset: 4>>
      // CHECK: %[[ALIGN8:.*]] = arith.constant 8 : i32
      // CHECK-NEXT: %[[WORKGROUP:.*]] = arith.constant 4 : i32
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %[[ALIGN8]], %[[WORKGROUP]],
      %d = memref.load %shared[%i] : memref<8xf64, #gpu.address_space<workgroup>>
      // CHECK: %[[ALIGN16:.*]] = arith.constant 16 : i32
      // CHECK-NEXT: %[[PRIVATE:.*]] = arith.constant 6 : i32
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %[[ALIGN16]], %[[PRIVATE]],
      %v = memref.load %own[%i] : memref<2xvector<8xf32>, #gpu.address_space<private>>
      // CHECK: %[[ALIGN2:.*]] = arith.constant 2 : i32
      // CHECK-NEXT: %[[CONSTANT:.*]] = arith.constant 8 : i32
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %[[ALIGN2]], %[[CONSTANT]],
      %table = memref.get_global @table : memref<4xi16>
      %t = memref.load %table[%i] : memref<4xi16>
      // CHECK: %[[STACK:.*]] = arith.constant 7 : i32
      // CHECK: func.call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %{{.*}}, %[[STACK]],
      %stack = memref.alloca() : memref<4xf32>
      %f = arith.constant 1.0 : f32
      memref.store %f, %stack[%i] : memref<4xf32>
      func.call @helper(%m, %i) : (memref<16xi8>, index) -> ()
      gpu.return
    }

    // A device function's memref may be any memory the kernel has.
    // CHECK-LABEL: func.func @helper(
    func.func @helper(%m: memref<16xi8>, %i: index) {
      // CHECK: %[[ALIGN:.*]] = arith.constant 1 : i32
      // CHECK-NEXT: %[[UNKNOWN:.*]] = arith.constant 0 : i32
      // CHECK: call @mgpuHostCheckAccessAt(%{{.*}}, %{{.*}}, %[[ALIGN]], %[[UNKNOWN]],
      %b = memref.load %m[%i] : memref<16xi8>
      return
    }
  }
}
