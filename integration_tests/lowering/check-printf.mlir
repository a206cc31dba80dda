// RUN: %gpu-runner-opt --gpu-runner-check-printf %s | FileCheck %s

// Integers narrower than 32 bits are promoted to i32 as C promotes them
// (i1 zero-extended, the others sign-extended), so that every backend
// passes printf the int that '%d' reads; the rest are left as they are.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @promote(
    // CHECK-SAME: %[[B:[^:]*]]: i1, %[[C:[^:]*]]: i8, %[[S:[^:]*]]: i16, %[[I:[^:]*]]: i32, %[[L:[^:]*]]: i64, %[[X:[^:]*]]: index, %[[H:[^:]*]]: f16
    gpu.func @promote(%b: i1, %c: i8, %s: i16, %i: i32, %l: i64, %x: index, %h: f16) kernel {
      // CHECK: %[[BW:.*]] = arith.extui %[[B]] : i1 to i32
      // CHECK: %[[CW:.*]] = arith.extsi %[[C]] : i8 to i32
      // CHECK: %[[SW:.*]] = arith.extsi %[[S]] : i16 to i32
      // CHECK: gpu.printf "%d %c %hd %d %ld %lu %f\0A", %[[BW]], %[[CW]], %[[SW]], %[[I]], %[[L]], %[[X]], %[[H]] : i32, i32, i32, i32, i64, index, f16
      gpu.printf "%d %c %hd %d %ld %lu %f\n", %b, %c, %s, %i, %l, %x, %h : i1, i8, i16, i32, i64, index, f16
      gpu.return
    }
  }
}

// Inside a gpu.launch too, before it is outlined.
// CHECK-LABEL: func.func @inline(
// CHECK-SAME: %[[V:.*]]: i8
func.func @inline(%v: i8) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: %[[W:.*]] = arith.extsi %[[V]] : i8 to i32
    // CHECK: gpu.printf "%x%%\0A", %[[W]] : i32
    gpu.printf "%x%%\n", %v : i8
    gpu.terminator
  }
  return
}
