// RUN: %gpu-runner-opt --gpu-runner-check-alloc-sizes %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-check-alloc-sizes %s | FileCheck %s --check-prefix=STRING

// One helper per rank reports a bad allocation with all its sizes; the
// branch is in the helper, so that the allocation's own region keeps one
// block (an async.execute region must).
// CHECK: llvm.func @mgpuAllocSizeErrorAt(i64, !llvm.ptr, i64, !llvm.ptr)
// CHECK-LABEL: func.func private @__gpu_runner_check_alloc_sizes_2(
// CHECK-SAME: %[[BAD:[^:]*]]: i1, %[[S0:[^:]*]]: index, %[[S1:[^:]*]]: index, %[[ELEMENT:[^:]*]]: i64, %[[WHERE:[^:]*]]: !llvm.ptr)
// CHECK:   scf.if %[[BAD]] {
// CHECK:     %[[SIZES:.*]] = llvm.alloca %{{.*}} x i64
// CHECK:     %[[FIRST:.*]] = llvm.getelementptr %[[SIZES]][0]
// CHECK:     %[[S0_64:.*]] = arith.index_cast %[[S0]] : index to i64
// CHECK:     llvm.store %[[S0_64]], %[[FIRST]]
// CHECK:     %[[SECOND:.*]] = llvm.getelementptr %[[SIZES]][1]
// CHECK:     %[[S1_64:.*]] = arith.index_cast %[[S1]] : index to i64
// CHECK:     llvm.store %[[S1_64]], %[[SECOND]]
// CHECK:     %[[RANK:.*]] = llvm.mlir.constant(2 : i64)
// CHECK:     llvm.call @mgpuAllocSizeErrorAt(%[[RANK]], %[[SIZES]], %[[ELEMENT]], %[[WHERE]])
// CHECK:   }
// CHECK:   return

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[N:.*]]: index
func.func @dynamic(%n: index) {
  // The static part: 8 x 4 bytes.
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : index
  // CHECK: %[[BYTES:.*]] = arith.constant 32 : index
  // CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[N]], %[[ZERO]]
  // CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %[[ZERO]]
  // CHECK: %[[LOW:.*]], %[[HIGH:.*]] = arith.mului_extended %[[BYTES]], %[[N]]
  // CHECK: %[[HIGHOK:.*]] = arith.cmpi eq, %[[HIGH]], %[[ZERO]]
  // CHECK: %[[LOWOK:.*]] = arith.cmpi sge, %[[LOW]], %[[ZERO]]
  // CHECK: %[[FITS:.*]] = arith.andi %[[HIGHOK]], %[[LOWOK]]
  // CHECK: %[[SIZEOK:.*]] = arith.ori %[[FITS]], %[[EMPTY]]
  // CHECK: %[[OK:.*]] = arith.andi %[[NONNEG]], %[[SIZEOK]]
  // CHECK: %[[TRUE:.*]] = arith.constant true
  // CHECK: %[[IS_BAD:.*]] = arith.xori %[[OK]], %[[TRUE]]
  // CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
  // CHECK: %[[FOUR:.*]] = arith.constant 4 : i64
  // CHECK: %[[AT:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
  // CHECK: call @__gpu_runner_check_alloc_sizes_2(%[[IS_BAD]], %[[N]], %[[EIGHT]], %[[FOUR]], %[[AT]])
  // CHECK-NEXT: memref.alloc(%[[N]])
  // STRING: llvm.mlir.global private constant @{{.*}}("memref.alloc@{{.*}}check-alloc-sizes.mlir:[[# @LINE + 1]]:8\00")
  %m = memref.alloc(%n) : memref<?x8xf32>
  memref.dealloc %m : memref<?x8xf32>
  return
}

// gpu.alloc and memref.alloca are checked too.
// CHECK-LABEL: func.func @others(
func.func @others(%n: index) {
  // CHECK: call @__gpu_runner_check_alloc_sizes_1(
  // CHECK-NEXT: gpu.alloc (%{{.*}})
  %g = gpu.alloc (%n) : memref<?xi64>
  // CHECK: call @__gpu_runner_check_alloc_sizes_1(
  // CHECK-NEXT: memref.alloca(%{{.*}})
  %a = memref.alloca(%n) : memref<?xi8>
  gpu.dealloc %g : memref<?xi64>
  return
}

// Static shapes that fit need no check; one that does not fit fails
// whenever it runs.
// CHECK-LABEL: func.func @static(
// CHECK-NEXT: memref.alloc() : memref<4x8xf32>
// CHECK: %[[ALWAYS:.*]] = arith.constant true
// CHECK: call @__gpu_runner_check_alloc_sizes_2(%[[ALWAYS]],
// CHECK-NEXT: memref.alloc() : memref<4294967296x4294967297xf32>
func.func @static() {
  %m = memref.alloc() : memref<4x8xf32>
  memref.dealloc %m : memref<4x8xf32>
  %h = memref.alloc() : memref<4294967296x4294967297xf32>
  memref.dealloc %h : memref<4294967296x4294967297xf32>
  return
}

// Kernels compiled for a GPU are left alone.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @kernel(
    // CHECK-NEXT: memref.alloca
    gpu.func @kernel(%n: index) kernel {
      %a = memref.alloca(%n) : memref<?xf32>
      gpu.return
    }
  }
}
