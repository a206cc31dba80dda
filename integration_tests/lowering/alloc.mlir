// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// CHECK-DAG: llvm.func @mgpuMemAllocAt(i64, !llvm.ptr, i8, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuMemFreeAt(!llvm.ptr, !llvm.ptr, !llvm.ptr)

// A synchronous allocation of a dynamic shape: the size in bytes from the
// sizes, a null stream, not host-shared; the descriptor is built from the
// pointer.
// CHECK-LABEL: llvm.func @sync_dynamic
// CHECK-SAME:    %[[N:arg[0-9]+]]: i64
// CHECK:         %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[FOUR:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK:         %[[COUNT:.*]] = llvm.mul %[[FOUR]], %[[N]] : i64
// CHECK:         %[[END:.*]] = llvm.getelementptr %{{.*}}[%[[COUNT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[BYTES:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK:         %[[SHARED:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK:         %[[PTR:.*]] = llvm.call @mgpuMemAllocAt(%[[BYTES]], %[[NULL]], %[[SHARED]], %{{.*}})
// CHECK:         llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[PTR]], %{{.*}}[1]
// CHECK:         %[[FREED:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK:         llvm.call @mgpuMemFreeAt(%[[FREED]], %{{.*}}, %{{.*}})
func.func @sync_dynamic(%n: index) {
  %m = gpu.alloc (%n) : memref<?x4xf32>
  gpu.dealloc %m : memref<?x4xf32>
  return
}

// Async and host_shared, in memory space 1: the runtime's generic pointer is
// cast to the memref's address space and back.
// CHECK-LABEL: llvm.func @async_host_shared
// CHECK-SAME:    %[[T0:arg[0-9]+]]: !llvm.ptr)
// CHECK:         %[[T:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[T0]], %{{.*}})
// CHECK:         %[[SHARED:.*]] = llvm.mlir.constant(1 : i8) : i8
// CHECK:         %[[PTR:.*]] = llvm.call @mgpuMemAllocAt(%{{.*}}, %[[T]], %[[SHARED]], %{{.*}})
// CHECK:         %[[PTR1:.*]] = llvm.addrspacecast %[[PTR]] : !llvm.ptr to !llvm.ptr<1>
// CHECK:         llvm.insertvalue %[[PTR1]], %{{.*}}[0]
// CHECK:         %[[T2:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[T]], %{{.*}})
// CHECK:         %[[FREED1:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(ptr<1>
// CHECK:         %[[FREED:.*]] = llvm.addrspacecast %[[FREED1]] : !llvm.ptr<1> to !llvm.ptr
// CHECK:         llvm.call @mgpuMemFreeAt(%[[FREED]], %[[T2]], %{{.*}})
// CHECK:         llvm.return %[[T2]]
func.func @async_host_shared(%t: !gpu.async.token) -> !gpu.async.token {
  %m, %t1 = gpu.alloc async [%t] host_shared () : memref<8xi64, 1>
  %t2 = gpu.dealloc async [%t1] %m : memref<8xi64, 1>
  return %t2 : !gpu.async.token
}

// An async allocation without dependencies makes its own stream.
// CHECK-LABEL: llvm.func @async_no_dependency
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreateAt
// CHECK:         llvm.call @mgpuMemAllocAt(%{{.*}}, %[[S]],
func.func @async_no_dependency() -> !gpu.async.token {
  %m, %t = gpu.alloc async () : memref<f32>
  return %t : !gpu.async.token
}
