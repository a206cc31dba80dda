// RUN: %gpu-runner-opt --gpu-runner-host-kernels %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-host-kernels=subgroup-vectors=false %s | FileCheck %s --check-prefix=LOOPS

// Which kernels cut at barriers and exchanges run a subgroup at a time, on
// vectors of its lanes (gpu_runner.subgroup_vectors): those whose every
// op has a form on vectors, where the block's size in x is a multiple of
// 32; the others, and every block without, run as loops over the threads.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK:       gpu.func @butterfly({{.*}}gpu_runner.subgroup_vectors
    // LOOPS:       gpu.func @butterfly(
    // LOOPS-NOT:     gpu_runner.subgroup_vectors
    // LOOPS-SAME:    {{\} \{$}}
    gpu.func @butterfly(%out: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<?xi32>
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : i32
      %sum = arith.addi %v, %s : i32
      memref.store %sum, %out[%tid] : memref<?xi32>
      gpu.return
    }

    // Every block of a kernel known to have 64 threads in x runs on
    // subgroups: only that way is compiled (the block function below).
    // CHECK:       gpu.func @known_whole({{.*}}gpu_runner.subgroup_vectors
    gpu.func @known_whole(%out: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<?xi32>
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : i32
      memref.store %s, %out[%tid] : memref<?xi32>
      gpu.return
    }

    // None of one known to have 48: only the loops over threads.
    // CHECK:       gpu.func @known_partial(
    // CHECK-NOT:     gpu_runner.subgroup_vectors
    // CHECK-SAME:    {{\} \{$}}
    gpu.func @known_partial(%out: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 48, 1, 1>} {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<?xi32>
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : i32
      memref.store %s, %out[%tid] : memref<?xi32>
      gpu.return
    }

    // A loop whose body adds up loads that every lane makes alike carries a
    // scalar, not a vector of the lanes' (the block function below).
    // CHECK:       gpu.func @uniform_sum({{.*}}gpu_runner.subgroup_vectors
    gpu.func @uniform_sum(%in: memref<?xi32>, %out: memref<?xi32>, %n: index) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i32
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> i32 {
          %v = memref.load %in[%i] : memref<?xi32>
          %t = arith.addi %s, %v : i32
          scf.yield %t : i32
        }
        memref.store %sum, %out[%c0] : memref<?xi32>
      }
      gpu.barrier
      gpu.return
    }

    // A loop whose condition differs between the threads has no form on
    // vectors here: loops over the threads, cut at the shuffle.
    // CHECK:       gpu.func @lane_while(
    // CHECK-NOT:     gpu_runner.subgroup_vectors
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {{\} \{$}}
    gpu.func @lane_while(%out: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<?xi32>
      %c1 = arith.constant 1 : i32
      %c7 = arith.constant 7 : i32
      %c32 = arith.constant 32 : i32
      %c100 = arith.constant 100 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : i32
      %r = scf.while (%x = %s) : (i32) -> i32 {
        %go = arith.cmpi slt, %x, %c100 : i32
        scf.condition(%go) %x : i32
      } do {
      ^bb0(%x: i32):
        %y = arith.addi %x, %c7 : i32
        scf.yield %y : i32
      }
      memref.store %r, %out[%tid] : memref<?xi32>
      gpu.return
    }
  }
}

// The block function of @butterfly: where the block's size in x is a
// multiple of 32, a loop over the subgroups of each row, whose lanes load
// consecutive elements as one vector, exchange them in registers and
// store them as one; otherwise loops over the threads.
// CHECK-LABEL: func.func private @__gpu_runner_kernels_butterfly_block(
// CHECK:         %[[REST:.*]] = arith.remui %{{.*}}, %c32
// CHECK:         %[[WHOLE:.*]] = arith.cmpi eq, %[[REST]], %c0
// CHECK:         scf.if %[[WHOLE]] {
// CHECK:           %[[SUBGROUPS:.*]] = arith.divui %{{.*}}, %[[C32:.*]] : index
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               scf.for %[[S:.*]] = %{{.*}} to %[[SUBGROUPS]]
// CHECK:                 %[[X0:.*]] = arith.muli %[[S]], %[[C32]]
// CHECK:                 %[[V:.*]] = vector.load %arg1[%[[X0]]] : memref<?xi32>, vector<32xi32>
// CHECK:                 vector.shuffle %[[V]], %[[V]] [1, 0, 3, 2, 5, 4
// CHECK-NOT:             mgpuHostShuffleAt
// CHECK:                 vector.store %{{.*}}, %arg1[%[[X0]]] : memref<?xi32>, vector<32xi32>
// CHECK:         } else {
// CHECK:           memref.alloca
// CHECK:           scf.for
// CHECK-LABEL: func.func private @__gpu_runner_kernels_butterfly_entry(

// CHECK-LABEL: func.func private @__gpu_runner_kernels_known_whole_block(
// CHECK-NOT:     arith.remui
// CHECK-NOT:     memref.alloca
// CHECK:         vector.shuffle
// CHECK-NOT:     memref.alloca
// CHECK-LABEL: func.func private @__gpu_runner_kernels_known_whole_entry(

// CHECK-LABEL: func.func private @__gpu_runner_kernels_uniform_sum_block(
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i32)
// CHECK-LABEL: func.func private @__gpu_runner_kernels_uniform_sum_entry(
