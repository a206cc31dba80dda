// RUN: %gpu-runner-opt --gpu-runner-host-kernels %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-host-kernels=split-barriers=false %s | FileCheck %s --check-prefix=FIBERS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Barriers in the body and in a loop all threads run alike: no fibers.
    // CHECK:       gpu.func @uniform(
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {
    // FIBERS:      gpu.func @uniform({{.*}}gpu_runner.uses_fibers
    gpu.func @uniform(%out: memref<?xi32>, %n: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %n step %c1 {
        %w = memref.load %shared[%k] : memref<64xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %s = arith.addi %v, %w : i32
        memref.store %s, %out[%tid] : memref<?xi32>
      }
      gpu.return
    }

    // A loop with a barrier that carries a per-thread sum: the loop runs
    // once for the block and the sum lives in a buffer.
    // CHECK:       gpu.func @carried(
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {
    gpu.func @carried(%out: memref<?xf32>, %n: index)
        workgroup(%shared: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %v = memref.load %shared[%k] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %next = arith.addf %acc, %v : f32
        scf.yield %next : f32
      }
      memref.store %sum, %out[%tid] : memref<?xf32>
      gpu.return
    }

    // A barrier only some threads reach: fibers, which report it.
    // CHECK:       gpu.func @divergent({{.*}}gpu_runner.uses_fibers
    gpu.func @divergent(%n: index) kernel {
      %tid = gpu.thread_id x
      %some = arith.cmpi ult, %tid, %n : index
      scf.if %some {
        gpu.barrier
      }
      gpu.return
    }

    // Threads that return before the barrier: fibers, where a returned
    // thread no longer counts at a barrier, as on a GPU.
    // CHECK:       gpu.func @early_exit({{.*}}gpu_runner.uses_fibers
    gpu.func @early_exit(%n: index) kernel {
      %tid = gpu.thread_id x
      %outside = arith.cmpi uge, %tid, %n : index
      cf.cond_br %outside, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      gpu.barrier
      gpu.return
    }
  }

  func.func @main(%out: memref<?xi32>, %sums: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@carried blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%sums : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@uniform blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%out : memref<?xi32>, %n : index)
    gpu.launch_func @kernels::@divergent blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%n : index)
    gpu.launch_func @kernels::@early_exit blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%n : index)
    return
  }
}

// The block function of @uniform: a buffer for %v, which every thread
// computes before the first barrier and uses after the second; a loop over
// the threads, then the uniform loop, run once for the block, with a loop
// over the threads on each side of its barrier.
// CHECK:       func.func private @__gpu_runner_kernels_uniform_block(%{{.*}}: !llvm.ptr, %[[OUT:.*]]: memref<?xi32>, %[[N:.*]]: index)
// CHECK:         memref.alloca(%{{.*}}) : memref<?xi32>
// CHECK:         memref.alloca(%{{.*}}) : memref<?xi32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[X:.*]] =
// CHECK:               %[[V:.*]] = arith.index_cast %[[X]] : index to i32
// CHECK:               memref.store %[[V]], %{{.*}}[%[[X]]]
// CHECK:               memref.store %[[V]], %[[BUFFER:.*]][%{{.*}}] : memref<?xi32>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[N]]
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:                 memref.load %{{.*}}[%[[K]]]
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               scf.for %[[X2:.*]] =
// CHECK:                 %[[V2:.*]] = memref.load %[[BUFFER]][%{{.*}}] : memref<?xi32>
// CHECK:                 arith.addi %[[V2]],
// CHECK:                 memref.store %{{.*}}, %[[OUT]][%[[X2]]]
// CHECK-NOT:     mgpuHostBarrierAt
// CHECK:         return

// The block function of @carried: the sum's buffer starts at zero for every
// thread, the loop over tiles carries nothing, its body's last thread loop
// writes the sum back, and the store after the loop reads the buffer.
// CHECK:       func.func private @__gpu_runner_kernels_carried_block(
// CHECK:         %[[SUM:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               memref.store %{{.*}}, %[[SUM]][%{{.*}}] : memref<?xf32>
// CHECK:         scf.for %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} {
// CHECK:         memref.load %[[SUM]]
// CHECK:         memref.store %{{.*}}, %[[SUM]]
// CHECK:         memref.load %[[SUM]]
// CHECK:         return
