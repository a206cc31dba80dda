// RUN: %gpu-runner-opt --gpu-runner-merge-async-operands %s | FileCheck %s

// A repeated dependency is named once; a repeated body operand is passed
// once, and the body's uses of its repeat use the first argument.
// CHECK-LABEL: func.func @repeats
// CHECK:         async.execute [%[[T:.*]]] (%[[V:.*]] as %[[A:.*]]: !async.value<i64>, %[[W:.*]] as %[[B:.*]]: !async.value<i64>) {
// CHECK-NEXT:      arith.addi %[[A]], %[[A]] : i64
// CHECK-NEXT:      arith.addi %[[B]], %[[A]] : i64
func.func @repeats(%t: !async.token, %v: !async.value<i64>,
                   %w: !async.value<i64>) {
  %done = async.execute [%t, %t] (%v as %a : !async.value<i64>,
                                  %w as %b : !async.value<i64>,
                                  %v as %c : !async.value<i64>) {
    %0 = arith.addi %a, %c : i64
    %1 = arith.addi %b, %a : i64
    async.yield
  }
  return
}

// Distinct operands are left as they are.
// CHECK-LABEL: func.func @distinct
// CHECK:         async.execute [%{{.*}}, %{{.*}}] (%{{.*}} as %{{.*}}: !async.value<i64>, %{{.*}} as %{{.*}}: !async.value<i64>)
func.func @distinct(%t: !async.token, %u: !async.token,
                    %v: !async.value<i64>, %w: !async.value<i64>) {
  %done = async.execute [%t, %u] (%v as %a : !async.value<i64>,
                                  %w as %b : !async.value<i64>) {
    async.yield
  }
  return
}
