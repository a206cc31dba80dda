// RUN: %gpu-runner-opt --gpu-runner-outline-async-bodies --split-input-file %s | FileCheck %s

// A loop in a body: the run becomes a private function, before the
// function that holds the execute; its parameters are what it uses from
// above (the body's arguments included), constants are cloned into it, and
// the body calls it where the run was.
// CHECK-LABEL: func.func private @__gpu_runner_loop_async_body(
// CHECK-SAME:      %[[V:.*]]: i32, %[[M:.*]]: memref<?xi32>, %[[N:.*]]: index) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      memref.store %[[V]], %[[M]][%[[I]]] : memref<?xi32>
// CHECK:         return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: memref<?xi32>, %[[F:.*]]: !async.value<i32>)
// CHECK:         async.execute (%[[F]] as %[[V:.*]]: !async.value<i32>) {
// CHECK-NEXT:      func.call @__gpu_runner_loop_async_body(%[[V]], %[[M]], %[[N]]) : (i32, memref<?xi32>, index) -> ()
// CHECK-NEXT:      async.yield
func.func @loop(%n: index, %m: memref<?xi32>, %f: !async.value<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = async.execute (%f as %v : !async.value<i32>) {
    scf.for %i = %c0 to %n step %c1 {
      memref.store %v, %m[%i] : memref<?xi32>
    }
    async.yield
  }
  return
}

// -----

// An await cuts the body: a run before it and one after, each a function;
// a value of the first run used after the await is its result, and what
// the body yields is the second one's. The body's constant, cloned into the
// first run, leaves the body.
// CHECK-LABEL: func.func private @__gpu_runner_await_async_body(
// CHECK-SAME:      %[[P:.*]]: i1) -> i32 {
// CHECK-NEXT:    %[[X:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    cf.assert %[[P]], "first"
// CHECK:         %[[Y:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK:         return %[[Y]] : i32
// CHECK-LABEL: func.func private @__gpu_runner_await_async_body_0(
// CHECK-SAME:      %[[Y:.*]]: i32, %[[A:.*]]: i32) -> i32 {
// CHECK:         %[[S:.*]] = arith.addi %[[Y]], %[[A]] : i32
// CHECK:         cf.assert
// CHECK:         return %[[S]] : i32
// CHECK-LABEL: func.func @await(
// CHECK-SAME:      %[[P:.*]]: i1, %[[F:.*]]: !async.value<i32>)
// CHECK:         async.execute -> !async.value<i32> {
// CHECK-NEXT:      %[[Y:.*]] = func.call @__gpu_runner_await_async_body(%[[P]]) : (i1) -> i32
// CHECK-NEXT:      %[[A:.*]] = async.await %[[F]] : !async.value<i32>
// CHECK-NEXT:      %[[S:.*]] = func.call @__gpu_runner_await_async_body_0(%[[Y]], %[[A]]) : (i32, i32) -> i32
// CHECK-NEXT:      async.yield %[[S]] : i32
func.func @await(%p: i1, %f: !async.value<i32>) {
  %t, %r = async.execute -> !async.value<i32> {
    cf.assert %p, "first"
    %x = arith.addi %p, %p : i1
    %seven = arith.constant 7 : i32
    %y = arith.addi %seven, %seven : i32
    %a = async.await %f : !async.value<i32>
    %s = arith.addi %y, %a : i32
    %ok = arith.cmpi sgt, %s, %y : i32
    cf.assert %ok, "second"
    async.yield %s : i32
  }
  return
}

// -----

// Inner bodies first; the nested execute stays in the outer body, and a
// value the outer run makes reaches the inner body through the call's
// result. A stack allocation stays in the body, for the body's lifetime,
// and is passed to the run that uses it.
// CHECK-LABEL: func.func private @__gpu_runner_nested_async_body(
// CHECK-SAME:      %[[Y:.*]]: i32, %[[B:.*]]: memref<4xi32>) {
// CHECK:         memref.store %[[Y]], %[[B]]
// CHECK-LABEL: func.func private @__gpu_runner_nested_async_body_0(
// CHECK-SAME:      %[[X:.*]]: i32) -> i32 {
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:    return %[[Y]] : i32
// CHECK-LABEL: func.func private @__gpu_runner_nested_async_body_1(
// CHECK-SAME:      %{{.*}}: i32, %{{.*}}: memref<4xi32>) {
// CHECK-LABEL: func.func @nested(
// CHECK-SAME:      %[[X:.*]]: i32)
// CHECK:         async.execute {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloca() : memref<4xi32>
// CHECK-NEXT:      %[[Y:.*]] = func.call @__gpu_runner_nested_async_body_0(%[[X]]) : (i32) -> i32
// CHECK-NEXT:      %[[INNER:.*]] = async.execute {
// CHECK-NEXT:        func.call @__gpu_runner_nested_async_body(%[[Y]], %[[BUF]]) : (i32, memref<4xi32>) -> ()
// CHECK-NEXT:        async.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      async.await %[[INNER]] : !async.token
// CHECK-NEXT:      func.call @__gpu_runner_nested_async_body_1(%[[X]], %[[BUF]]) : (i32, memref<4xi32>) -> ()
// CHECK-NEXT:      async.yield
func.func @nested(%x: i32) {
  %t = async.execute {
    %buffer = memref.alloca() : memref<4xi32>
    %y = arith.addi %x, %x : i32
    %inner = async.execute {
      %c0 = arith.constant 0 : index
      memref.store %y, %buffer[%c0] : memref<4xi32>
      async.yield
    }
    async.await %inner : !async.token
    %c1 = arith.constant 1 : index
    memref.store %x, %buffer[%c1] : memref<4xi32>
    async.yield
  }
  return
}

// -----

// gpu ops made asynchronous by gpu-async-region: the token the run makes
// is its result, and the body yields it as before.
// CHECK-LABEL: func.func private @__gpu_runner_tokens_async_body(
// CHECK-SAME:      %{{.*}}: memref<4xi32>, %{{.*}}: memref<4xi32>) -> !gpu.async.token {
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[T1:.*]] = gpu.memcpy async [%[[T0]]]
// CHECK:         return %[[T1]] : !gpu.async.token
// CHECK-LABEL: func.func @tokens(
// CHECK:         async.execute -> !async.value<!gpu.async.token> {
// CHECK-NEXT:      %[[T:.*]] = func.call @__gpu_runner_tokens_async_body(
// CHECK-NEXT:      async.yield %[[T]] : !gpu.async.token
func.func @tokens(%dst: memref<4xi32>, %src: memref<4xi32>) {
  %t, %v = async.execute -> !async.value<!gpu.async.token> {
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %dst, %src : memref<4xi32>, memref<4xi32>
    async.yield %t1 : !gpu.async.token
  }
  return
}
