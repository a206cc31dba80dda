// RUN: %gpu-runner-opt --gpu-runner-check-alloc-sizes %s | FileCheck %s

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[N:.*]]: index
func.func @dynamic(%n: index) {
  // The static part: 8 x 4 bytes.
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : index
  // CHECK: %[[BYTES:.*]] = arith.constant 32 : index
  // CHECK: arith.cmpi sge, %[[N]], %[[ZERO]]
  // CHECK: %[[LOW:.*]], %[[HIGH:.*]] = arith.mului_extended %[[BYTES]], %[[N]]
  // CHECK: arith.cmpi eq, %[[HIGH]], %[[ZERO]]
  // CHECK: arith.cmpi sge, %[[LOW]], %[[ZERO]]
  // CHECK: cf.assert %{{.*}}, "{{.*}}check-alloc-sizes.mlir:[[# @LINE + 2]]:8: error: memref.alloc: a size is negative, or the allocation has more bytes than an index can count"
  // CHECK-NEXT: memref.alloc(%[[N]])
  %m = memref.alloc(%n) : memref<?x8xf32>
  memref.dealloc %m : memref<?x8xf32>
  return
}

// Static shapes need no check.
// CHECK-LABEL: func.func @static(
// CHECK-NOT: cf.assert
func.func @static() {
  %m = memref.alloc() : memref<4x8xf32>
  memref.dealloc %m : memref<4x8xf32>
  return
}
