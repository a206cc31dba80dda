// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// CHECK-DAG: llvm.func @mgpuMemset8At(!llvm.ptr, i8, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuMemset16At(!llvm.ptr, i16, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuMemset32At(!llvm.ptr, i32, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuMemset64At(!llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @mgpuMemsetStridedAt(i64, !llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr)

// Each width has its call; the count is in elements.
// CHECK-LABEL: llvm.func @i8
// CHECK-SAME:    %[[V:arg[0-9]+]]: i8
// CHECK:         %[[N:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK:         llvm.call @mgpuMemset8At(%{{.*}}, %[[V]], %[[N]], %{{.*}}, %{{.*}})
func.func @i8(%m: memref<16xi8>, %v: i8) {
  gpu.memset %m, %v : memref<16xi8>, i8
  return
}

// A float is passed as its bits.
// CHECK-LABEL: llvm.func @f16
// CHECK-SAME:    %[[V:arg[0-9]+]]: f16
// CHECK:         %[[BITS:.*]] = llvm.bitcast %[[V]] : f16 to i16
// CHECK:         %[[N:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK:         llvm.call @mgpuMemset16At(%{{.*}}, %[[BITS]], %[[N]],
func.func @f16(%m: memref<3x4xf16>, %v: f16) {
  gpu.memset %m, %v : memref<3x4xf16>, f16
  return
}

// CHECK-LABEL: llvm.func @i32_async
// CHECK-SAME:    %[[T:arg[0-9]+]]: !llvm.ptr)
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[T]], %{{.*}})
// CHECK:         llvm.call @mgpuMemset32At(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}})
// CHECK:         llvm.return %[[S]]
func.func @i32_async(%m: memref<5xi32>, %v: i32, %t: !gpu.async.token) -> !gpu.async.token {
  %t1 = gpu.memset async [%t] %m, %v : memref<5xi32>, i32
  return %t1 : !gpu.async.token
}

// CHECK-LABEL: llvm.func @f64
// CHECK:         %[[BITS:.*]] = llvm.bitcast %{{.*}} : f64 to i64
// CHECK:         llvm.call @mgpuMemset64At(%{{.*}}, %[[BITS]],
func.func @f64(%m: memref<2xf64>, %v: f64) {
  gpu.memset %m, %v : memref<2xf64>, f64
  return
}

// index is the 64-bit integer it lowers to.
// CHECK-LABEL: llvm.func @index
// CHECK-SAME:    %[[V:arg[0-9]+]]: i64) {
// CHECK:         llvm.call @mgpuMemset64At(%{{.*}}, %[[V]],
func.func @index(%m: memref<3xindex>, %v: index) {
  gpu.memset %m, %v : memref<3xindex>, index
  return
}

// One column of a matrix: a strided memset of the view's descriptor, the
// value's bits widened to i64, the element size in bytes.
// CHECK-LABEL: llvm.func @column
// CHECK:         %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[WIDE:.*]] = llvm.zext %[[BITS]] : i32 to i64
// CHECK:         %[[SP:.*]] = llvm.intr.stacksave
// CHECK:         %[[RANK:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[DESC:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         %[[SIZE:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK:         llvm.call @mgpuMemsetStridedAt(%[[RANK]], %[[DESC]], %[[SIZE]], %[[WIDE]], %{{.*}}, %{{.*}})
// CHECK:         llvm.intr.stackrestore %[[SP]]
func.func @column(%m: memref<4xf32, strided<[6], offset: 2>>, %v: f32) {
  gpu.memset %m, %v : memref<4xf32, strided<[6], offset: 2>>, f32
  return
}

// Dynamic shapes go through the descriptor as well.
// CHECK-LABEL: llvm.func @dynamic
// CHECK:         llvm.call @mgpuMemsetStridedAt
func.func @dynamic(%m: memref<?xi16>, %v: i16) {
  gpu.memset %m, %v : memref<?xi16>, i16
  return
}
