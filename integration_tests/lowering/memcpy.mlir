// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// Declarations, once each, with the types of wrappers/MgpuAbi.def.
// CHECK-DAG: llvm.func @mgpuMemcpyAt(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuMemcpyStridedAt(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuStreamCreateAt(!llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuStreamJoinAt(!llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuStreamFromTokenAt(!llvm.ptr, !llvm.ptr) -> !llvm.ptr

// Every call carries its op's name and location, as a private string.
// CHECK-DAG: llvm.mlir.global private constant @[[ORIG_WAIT_ASYNC:.*]]("gpu.wait@{{.*}}memcpy.mlir:[[# @LINE + 17]]:9\00")
// CHECK-DAG: llvm.mlir.global private constant @[[ORIG_COPY:.*]]("gpu.memcpy@{{.*}}memcpy.mlir:[[# @LINE + 17]]:9\00")
// CHECK-DAG: llvm.mlir.global private constant @[[ORIG_WAIT:.*]]("gpu.wait@{{.*}}memcpy.mlir:[[# @LINE + 17]]:3\00")

// The original case: a copy into memory space 1 on the stream of a
// `gpu.wait async`, then a final wait. The runtime says which stream the
// copy runs on (the token's, unless a gpu.wait released it since).
// CHECK-LABEL: llvm.func @original
// CHECK:         %[[NEW:.*]] = llvm.call @mgpuStreamCreateAt(%{{.*}})
// CHECK:         %[[STREAM:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[NEW]], %{{.*}})
// CHECK:         %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[END:.*]] = llvm.getelementptr %[[NULL]][7] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK:         %[[BYTES:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK:         %[[SRC:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[DST1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[DST:.*]] = llvm.addrspacecast %[[DST1]] : !llvm.ptr<1> to !llvm.ptr
func.func @original(%dst: memref<7xf32, 1>, %src: memref<7xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %dst, %src : memref<7xf32, 1>, memref<7xf32>
  gpu.wait [%t1]
  return
}
// CHECK:         %[[LOC:.*]] = llvm.mlir.addressof @[[ORIG_COPY]]
// CHECK:         llvm.call @mgpuMemcpyAt(%[[DST]], %[[SRC]], %[[BYTES]], %[[STREAM]], %[[LOC]])
// CHECK:         llvm.call @mgpuStreamSynchronizeAt(%[[STREAM]], %{{.*}})
// CHECK:         llvm.call @mgpuStreamDestroyAt(%[[STREAM]], %{{.*}})
// CHECK-NOT:     llvm.call
// CHECK:         llvm.return

// A synchronous copy passes a null stream and makes no stream.
// CHECK-LABEL: llvm.func @sync
// CHECK-NOT:     mgpuStreamCreateAt
// CHECK:         %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         llvm.call @mgpuMemcpyAt(%{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %{{.*}})
// CHECK-NEXT:    llvm.return
func.func @sync(%dst: memref<4x4xi8>, %src: memref<4x4xi8>) {
  gpu.memcpy %dst, %src : memref<4x4xi8>, memref<4x4xi8>
  return
}

// A synchronous copy with dependencies waits for their streams first, without
// releasing them.
// CHECK-LABEL: llvm.func @sync_with_dependency
// CHECK-SAME:    %[[T:arg[0-9]+]]: !llvm.ptr) {
// CHECK:         llvm.call @mgpuStreamSynchronizeAt(%[[T]], %{{.*}})
// CHECK-NOT:     mgpuStreamDestroyAt
// CHECK:         llvm.call @mgpuMemcpyAt
func.func @sync_with_dependency(%dst: memref<4xi8>, %src: memref<4xi8>, %t: !gpu.async.token) {
  gpu.memcpy [%t] %dst, %src : memref<4xi8>, memref<4xi8>
  return
}

// An async copy without dependencies gets a stream of its own.
// CHECK-LABEL: llvm.func @async_no_dependency
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreateAt
// CHECK:         llvm.call @mgpuMemcpyAt(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}})
// CHECK:         llvm.return %[[S]] : !llvm.ptr
func.func @async_no_dependency(%dst: memref<4xi8>, %src: memref<4xi8>) -> !gpu.async.token {
  %t = gpu.memcpy async %dst, %src : memref<4xi8>, memref<4xi8>
  return %t : !gpu.async.token
}

// With several dependencies, the copy runs on the first one's stream after the
// others are joined into it; a token named twice is joined once. A token that
// no gpu op made here (an argument) may be an event from an async.yield: the
// runtime gives the stream to run on.
// CHECK-LABEL: llvm.func @async_many_dependencies
// CHECK-SAME:    %[[A:arg[0-9]+]]: !llvm.ptr, %[[B:arg[0-9]+]]: !llvm.ptr, %[[C:arg[0-9]+]]: !llvm.ptr)
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[A]], %{{.*}})
// CHECK-NEXT:    llvm.mlir.addressof
// CHECK-NEXT:    llvm.call @mgpuStreamJoinAt(%[[S]], %[[B]], %{{.*}})
// CHECK-NEXT:    llvm.mlir.addressof
// CHECK-NEXT:    llvm.call @mgpuStreamJoinAt(%[[S]], %[[C]], %{{.*}})
// CHECK-NOT:     mgpuStreamJoinAt
// CHECK:         llvm.call @mgpuMemcpyAt(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}})
// CHECK:         llvm.return %[[S]]
func.func @async_many_dependencies(%dst: memref<4xi8>, %src: memref<4xi8>, %a: !gpu.async.token,
                                   %b: !gpu.async.token, %c: !gpu.async.token) -> !gpu.async.token {
  %t = gpu.memcpy async [%a, %b, %a, %c] %dst, %src : memref<4xi8>, memref<4xi8>
  return %t : !gpu.async.token
}

// A contiguous view with an offset copies from aligned + offset.
// CHECK-LABEL: llvm.func @contiguous_offset
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         %[[OFFSET:.*]] = llvm.extractvalue %{{.*}}[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         %[[SRC:.*]] = llvm.getelementptr %[[ALIGNED]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.call @mgpuMemcpyAt(%{{.*}}, %[[SRC]],
func.func @contiguous_offset(%dst: memref<2x3xf32>, %src: memref<2x3xf32, strided<[3, 1], offset: 6>>) {
  gpu.memcpy %dst, %src : memref<2x3xf32>, memref<2x3xf32, strided<[3, 1], offset: 6>>
  return
}

// A strided destination passes both descriptors, so the window of the
// destination is written and nothing else.
// CHECK-LABEL: llvm.func @strided_destination
// CHECK:         %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK:         %[[RANK:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK:         %[[DST:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         llvm.store %{{.*}}, %[[DST]]
// CHECK:         %[[SRC:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         llvm.store %{{.*}}, %[[SRC]]
// CHECK:         %[[ONE:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK:         %[[ELEM:.*]] = llvm.ptrtoint %[[ONE]]
// CHECK:         llvm.call @mgpuMemcpyStridedAt(%[[RANK]], %[[DST]], %[[SRC]], %[[ELEM]], %{{.*}}, %{{.*}})
// CHECK:         llvm.intr.stackrestore %[[SP]]
// CHECK-NOT:     mgpuMemcpyAt
func.func @strided_destination(%dst: memref<2x3xf32, strided<[6, 1], offset: 13>>, %src: memref<2x3xf32>) {
  gpu.memcpy %dst, %src : memref<2x3xf32, strided<[6, 1], offset: 13>>, memref<2x3xf32>
  return
}

// A strided source, likewise.
// CHECK-LABEL: llvm.func @strided_source
// CHECK:         llvm.call @mgpuMemcpyStridedAt
// CHECK-NOT:     mgpuMemcpyAt
func.func @strided_source(%dst: memref<4xf64>, %src: memref<4xf64, strided<[2]>>) {
  gpu.memcpy %dst, %src : memref<4xf64>, memref<4xf64, strided<[2]>>
  return
}

// Dynamic shapes go through the descriptors too: the runtime checks that both
// sides have the same sizes.
// CHECK-LABEL: llvm.func @dynamic
// CHECK:         llvm.call @mgpuMemcpyStridedAt
func.func @dynamic(%dst: memref<?x5xi32>, %src: memref<?x5xi32>) {
  gpu.memcpy %dst, %src : memref<?x5xi32>, memref<?x5xi32>
  return
}

// A 0-d memref is one element.
// CHECK-LABEL: llvm.func @zero_d
// CHECK:         %[[END:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, f64
// CHECK:         %[[BYTES:.*]] = llvm.ptrtoint %[[END]]
// CHECK:         llvm.call @mgpuMemcpyAt(%{{.*}}, %{{.*}}, %[[BYTES]],
func.func @zero_d(%dst: memref<f64>, %src: memref<f64>) {
  gpu.memcpy %dst, %src : memref<f64>, memref<f64>
  return
}

// #gpu.address_space<global> is address space 1, cast to a generic pointer
// for the call.
// CHECK-LABEL: llvm.func @gpu_address_space
// CHECK:         %[[P:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<1> to !llvm.ptr
// CHECK:         llvm.call @mgpuMemcpyAt(%{{.*}}, %[[G]],
func.func @gpu_address_space(%dst: memref<8xi16>, %src: memref<8xi16, #gpu.address_space<global>>) {
  gpu.memcpy %dst, %src : memref<8xi16>, memref<8xi16, #gpu.address_space<global>>
  return
}
