// RUN: %gpu-runner-opt --gpu-runner-verify-host-code %s | FileCheck %s

// Host code gets upstream's checks, each named for the op it checks; the
// kernels, in a gpu.module or a gpu.launch body, are left alone.

// CHECK-LABEL: func.func @load(
// CHECK-SAME: %[[M:.*]]: memref<?xf32>, %[[I:.*]]: index
func.func @load(%m: memref<?xf32>, %i: index) -> f32 {
  // CHECK: %[[DIM:.*]] = memref.dim %[[M]]
  // CHECK: %[[LOW:.*]] = arith.cmpi sge, %[[I]]
  // CHECK: %[[HIGH:.*]] = arith.cmpi slt, %[[I]], %[[DIM]]
  // CHECK: %[[OK:.*]] = arith.andi %[[LOW]], %[[HIGH]]
  // CHECK: cf.assert %[[OK]], "out-of-bounds access" {gpu_runner.runtime_op_name = "memcheck: memref.load"}
  // CHECK: memref.load %[[M]][%[[I]]]
  %v = memref.load %m[%i] : memref<?xf32>
  return %v : f32
}

// Ours: the result's reach against the source's, from both descriptors.
// CHECK-LABEL: func.func @reinterpret(
// CHECK-SAME: %[[M:.*]]: memref<?xf32>, %[[O:[^:]*]]: index, %[[S:[^:]*]]: index
func.func @reinterpret(%m: memref<?xf32>, %o: index, %s: index) {
  // CHECK: memref.extract_strided_metadata %[[M]]
  // CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[S]], %{{.*}} : index
  // CHECK: cf.assert %[[NONNEG]], "the result's size in dimension 0 is negative" {gpu_runner.runtime_op_name = "memcheck: memref.reinterpret_cast"}
  // CHECK: cf.assert %{{.*}}, "the result reaches elements outside the source memref" {gpu_runner.runtime_op_name = "memcheck: memref.reinterpret_cast"}
  // CHECK: memref.reinterpret_cast %[[M]] to offset: [%[[O]]]
  %r = memref.reinterpret_cast %m to offset: [%o], sizes: [%s], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  return
}

// A vector load: its last element must be inside too.
// CHECK-LABEL: func.func @vector_load(
// CHECK-SAME: %[[M:.*]]: memref<?xf32>, %[[I:.*]]: index
func.func @vector_load(%m: memref<?xf32>, %i: index) -> vector<4xf32> {
  // CHECK: %[[C3:.*]] = arith.constant 3 : index
  // CHECK: %[[LAST:.*]] = arith.addi %[[I]], %[[C3]]
  // CHECK: %[[DIM:.*]] = memref.dim %[[M]]
  // CHECK: arith.cmpi sge, %[[I]]
  // CHECK: arith.cmpi slt, %[[LAST]], %[[DIM]]
  // CHECK: cf.assert %{{.*}}, "out-of-bounds access" {gpu_runner.runtime_op_name = "memcheck: vector.load"}
  // CHECK: vector.load %[[M]][%[[I]]]
  %v = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// An affine load: the indices its map gives.
// CHECK-LABEL: func.func @affine_load(
// CHECK-SAME: %[[M:.*]]: memref<?xf32>, %[[I:.*]]: index
func.func @affine_load(%m: memref<?xf32>, %i: index) -> f32 {
  // CHECK: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: %[[INDEX:.*]] = arith.addi %[[I]], %[[C2]]
  // CHECK: arith.cmpi sge, %[[INDEX]]
  // CHECK: cf.assert %{{.*}}, "out-of-bounds access" {gpu_runner.runtime_op_name = "memcheck: affine.load"}
  // CHECK: affine.load %[[M]]
  %v = affine.load %m[%i + 2] : memref<?xf32>
  return %v : f32
}

// A base buffer names the whole allocation: not checked.
// CHECK-LABEL: func.func @from_base(
// CHECK-NOT: cf.assert
// CHECK: return
func.func @from_base(%m: memref<?xf32>, %n: index) {
  %base, %offset, %size, %stride = memref.extract_strided_metadata %m : memref<?xf32> -> memref<f32>, index, index, index
  %r = memref.reinterpret_cast %base to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32>
  return
}

// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: cf.assert
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<?xf32>, %i: index) kernel {
      %v = memref.load %m[%i] : memref<?xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @launch(
// CHECK: gpu.launch
// CHECK-NOT: cf.assert
// CHECK: gpu.terminator
func.func @launch(%m: memref<?xf32>, %i: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    %v = memref.load %m[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}
