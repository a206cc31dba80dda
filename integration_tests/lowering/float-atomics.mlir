// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// memref.generic_atomic_rmw on a float: a cmpxchg loop on the float's bits
// (upstream emits a cmpxchg on the float itself, which LLVM rejects).
// CHECK-LABEL: llvm.func @maximum
// CHECK:         %[[PTR:.*]] = llvm.getelementptr
// CHECK:         %[[INIT:.*]] = llvm.load %[[PTR]] : !llvm.ptr -> i32
// CHECK:         llvm.br ^[[LOOP:.*]](%[[INIT]] : i32)
// CHECK:       ^[[LOOP]](%[[EXPECTED:.*]]: i32):
// CHECK:         %[[CURRENT:.*]] = llvm.bitcast %[[EXPECTED]] : i32 to f32
// CHECK:         %[[NEXT:.*]] = llvm.intr.maximum(%[[CURRENT]], %{{.*}}) : (f32, f32) -> f32
// CHECK:         %[[NEXT_BITS:.*]] = llvm.bitcast %[[NEXT]] : f32 to i32
// CHECK:         %[[PAIR:.*]] = llvm.cmpxchg %[[PTR]], %[[EXPECTED]], %[[NEXT_BITS]] acq_rel monotonic : !llvm.ptr, i32
// CHECK:         %[[LOADED:.*]] = llvm.extractvalue %[[PAIR]][0]
// CHECK:         %[[OK:.*]] = llvm.extractvalue %[[PAIR]][1]
// CHECK:         %[[RESULT:.*]] = llvm.bitcast %[[LOADED]] : i32 to f32
// CHECK:         llvm.cond_br %[[OK]], ^[[END:.*]], ^[[LOOP]](%[[LOADED]] : i32)
// CHECK:       ^[[END]]:
// CHECK:         llvm.return %[[RESULT]] : f32
func.func @maximum(%m: memref<4xf32>, %i: index, %v: f32) -> f32 {
  %old = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%current: f32):
    %next = arith.maximumf %current, %v : f32
    memref.atomic_yield %next : f32
  }
  return %old : f32
}

// Integers keep upstream's lowering.
// CHECK-LABEL: llvm.func @integer
// CHECK:         llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel monotonic : !llvm.ptr, i64
func.func @integer(%m: memref<4xi64>, %i: index) -> i64 {
  %old = memref.generic_atomic_rmw %m[%i] : memref<4xi64> {
  ^bb0(%current: i64):
    %c2 = arith.constant 2 : i64
    %next = arith.muli %current, %c2 : i64
    memref.atomic_yield %next : i64
  }
  return %old : i64
}
