// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// CHECK-LABEL: llvm.func @new_stream
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreateAt
// CHECK:         llvm.return %[[S]]
func.func @new_stream() -> !gpu.async.token {
  %t = gpu.wait async
  return %t : !gpu.async.token
}

// With one dependency, the token is that dependency's stream (through the
// runtime, for a token that is an argument: it may be an event).
// CHECK-LABEL: llvm.func @one_dependency
// CHECK-SAME:    %[[A:arg[0-9]+]]: !llvm.ptr)
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[A]], %{{.*}})
// CHECK-NEXT:    llvm.return %[[S]]
func.func @one_dependency(%a: !gpu.async.token) -> !gpu.async.token {
  %t = gpu.wait async [%a]
  return %t : !gpu.async.token
}

// A fan-in joins the other streams into the first, which releases them: none
// is left behind.
// CHECK-LABEL: llvm.func @fan_in
// CHECK-SAME:    %[[A:arg[0-9]+]]: !llvm.ptr, %[[B:arg[0-9]+]]: !llvm.ptr, %[[C:arg[0-9]+]]: !llvm.ptr)
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[A]], %{{.*}})
// CHECK:         llvm.call @mgpuStreamJoinAt(%[[S]], %[[B]], %{{.*}})
// CHECK:         llvm.call @mgpuStreamJoinAt(%[[S]], %[[C]], %{{.*}})
// CHECK:         llvm.return %[[S]]
func.func @fan_in(%a: !gpu.async.token, %b: !gpu.async.token, %c: !gpu.async.token) -> !gpu.async.token {
  %t = gpu.wait async [%a, %b, %c]
  return %t : !gpu.async.token
}

// A synchronous wait synchronizes and releases each stream once.
// CHECK-LABEL: llvm.func @sync
// CHECK-SAME:    %[[A:arg[0-9]+]]: !llvm.ptr, %[[B:arg[0-9]+]]: !llvm.ptr)
// CHECK:         llvm.call @mgpuStreamSynchronizeAt(%[[A]], %{{.*}})
// CHECK-NEXT:    llvm.mlir.addressof
// CHECK-NEXT:    llvm.call @mgpuStreamDestroyAt(%[[A]], %{{.*}})
// CHECK-NEXT:    llvm.mlir.addressof
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronizeAt(%[[B]], %{{.*}})
// CHECK-NEXT:    llvm.mlir.addressof
// CHECK-NEXT:    llvm.call @mgpuStreamDestroyAt(%[[B]], %{{.*}})
// CHECK-NEXT:    llvm.return
func.func @sync(%a: !gpu.async.token, %b: !gpu.async.token) {
  gpu.wait [%a, %b, %a]
  return
}

// Without dependencies, a synchronous wait waits for nothing.
// CHECK-LABEL: llvm.func @sync_nothing
// CHECK-NEXT:    llvm.return
func.func @sync_nothing() {
  gpu.wait
  return
}

// Tokens flow through control flow like any value.
// CHECK-LABEL: llvm.func @through_branches
// CHECK:         llvm.cond_br %{{.*}}, ^[[BB1:.*]], ^[[BB2:.*]](%{{.*}} : !llvm.ptr)
// CHECK:       ^[[BB2]](%[[T:.*]]: !llvm.ptr):
// CHECK:         llvm.call @mgpuStreamSynchronizeAt(%[[T]],
func.func @through_branches(%c: i1, %a: !gpu.async.token) {
  cf.cond_br %c, ^bb1, ^bb2(%a : !gpu.async.token)
^bb1:
  %b = gpu.wait async
  cf.br ^bb2(%b : !gpu.async.token)
^bb2(%t: !gpu.async.token):
  gpu.wait [%t]
  return
}

// A token made by a gpu op here goes through the runtime too: a gpu.wait may
// have released its stream since (here one on %b, the same stream), and a
// completed token is still a dependency, which then gets a stream of its own.
// CHECK-LABEL: llvm.func @local_tokens
// CHECK:         %[[A:.*]] = llvm.call @mgpuStreamCreateAt
// CHECK:         %[[B:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[A]], %{{.*}})
// CHECK:         llvm.call @mgpuStreamSynchronizeAt(%[[B]], %{{.*}})
// CHECK:         llvm.call @mgpuStreamDestroyAt(%[[B]], %{{.*}})
// CHECK:         %[[C:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[A]], %{{.*}})
// CHECK:         llvm.return %[[C]]
func.func @local_tokens() -> !gpu.async.token {
  %a = gpu.wait async
  %b = gpu.wait async [%a]
  gpu.wait [%b]
  %c = gpu.wait async [%a]
  return %c : !gpu.async.token
}
