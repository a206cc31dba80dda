// RUN: %gpu-runner-opt --gpu-runner-async-gpu-regions --gpu-runner-gpu-to-llvm %s | FileCheck %s

// In a function with async.execute, gpu ops become asynchronous on a token;
// a token leaves its region as an event recorded on the region's stream,
// which is then released; the region that awaits it runs on a stream of its
// own made from that event.
// CHECK-LABEL: llvm.func @fork
// CHECK:         async.execute
// CHECK:           %[[NEW:.*]] = llvm.call @mgpuStreamCreateAt
// CHECK:           %[[S:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[NEW]], %{{.*}})
// CHECK:           llvm.call @mgpuMemsetStridedAt({{.*}}, %[[S]], %{{.*}})
// CHECK:           %[[E:.*]] = llvm.call @mgpuStreamRecordEventAt(%[[S]], %{{.*}})
// CHECK:           llvm.call @mgpuStreamDestroyAt(%[[S]], %{{.*}})
// CHECK:           async.yield %[[E]] : !llvm.ptr
// CHECK:         async.execute
// CHECK-SAME:      (%{{.*}} as %[[ARG:.*]]: !async.value<!llvm.ptr>)
// CHECK:           %[[S2:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[ARG]], %{{.*}})
// CHECK:           %[[S3:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[S2]], %{{.*}})
// CHECK:           llvm.call @mgpuMemsetStridedAt({{.*}}, %[[S3]], %{{.*}})
func.func @fork(%m: memref<?xi32>, %v: i32) {
  %t0 = async.execute {
    gpu.memset %m, %v : memref<?xi32>, i32
    async.yield
  }
  %t1 = async.execute [%t0] {
    gpu.memset %m, %v : memref<?xi32>, i32
    async.yield
  }
  async.await %t1 : !async.token
  return
}

// A function without async regions keeps its synchronous ops.
// CHECK-LABEL: llvm.func @plain
// CHECK-NOT:     mgpuStreamCreateAt
// CHECK:         %[[NULL:.*]] = llvm.mlir.zero
// CHECK:         llvm.call @mgpuMemsetStridedAt({{.*}}, %[[NULL]], %{{.*}})
func.func @plain(%m: memref<?xi32>, %v: i32) {
  gpu.memset %m, %v : memref<?xi32>, i32
  return
}
