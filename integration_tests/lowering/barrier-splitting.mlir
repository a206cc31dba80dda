// RUN: %gpu-runner-opt --gpu-runner-host-kernels %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-host-kernels=split-barriers=false %s | FileCheck %s --check-prefix=FIBERS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Barriers in the body and in a loop all threads run alike: no fibers.
    // CHECK:       gpu.func @uniform(
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {{\} \{$}}
    // FIBERS:      gpu.func @uniform({{.*}}gpu_runner.uses_fibers
    gpu.func @uniform(%out: memref<?xi32>, %n: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<?xi32>
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
    // CHECK-SAME:    {{\} \{$}}
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

    // Shuffles every thread reaches together are cut at like barriers: no
    // fibers (the block function below).
    // CHECK:       gpu.func @butterfly(
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {{\} \{$}}
    // FIBERS:      gpu.func @butterfly({{.*}}gpu_runner.uses_fibers
    gpu.func @butterfly(%out: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<?xi32>
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c32 = arith.constant 32 : i32
      %a, %pa = gpu.shuffle xor %v, %c1, %c32 : i32
      %s = arith.addi %v, %a : i32
      %tid32 = arith.index_cast %tid : index to i32
      %src = arith.xori %tid32, %c2 : i32
      %b, %pb = gpu.shuffle idx %s, %src, %c32 : i32
      %t = arith.addi %s, %b : i32
      memref.store %t, %out[%tid] : memref<?xi32>
      gpu.return
    }

    // A broadcast in a loop every thread runs alike: no fibers either.
    // CHECK:       gpu.func @broadcast_loop(
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {{\} \{$}}
    gpu.func @broadcast_loop(%out: memref<?xi32>, %n: index) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = memref.load %out[%tid] : memref<?xi32>
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %v) -> i32 {
        %b = gpu.subgroup_broadcast %acc, first_active_lane : i32
        %next = arith.addi %acc, %b : i32
        scf.yield %next : i32
      }
      memref.store %r, %out[%tid] : memref<?xi32>
      gpu.return
    }

    // A shuffle in a case of an scf.index_switch on a uniform value, whose
    // per-thread result goes through a buffer: no fibers.
    // CHECK:       gpu.func @switch(
    // CHECK-NOT:     gpu_runner.uses_fibers
    // CHECK-SAME:    {{\} \{$}}
    gpu.func @switch(%out: memref<?xi32>, %which: index) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %v = memref.load %out[%tid] : memref<?xi32>
      %r = scf.index_switch %which -> i32
      case 0 {
        %a, %pa = gpu.shuffle xor %v, %c1, %c32 : i32
        scf.yield %a : i32
      }
      default {
        scf.yield %v : i32
      }
      memref.store %r, %out[%tid] : memref<?xi32>
      gpu.return
    }

    // A shuffle only some threads reach, or whose width is not a constant
    // (which the runtime checks): fibers.
    // CHECK:       gpu.func @shuffle_divergent({{.*}}gpu_runner.uses_fibers
    // CHECK:       gpu.func @shuffle_width({{.*}}gpu_runner.uses_fibers
    gpu.func @shuffle_divergent(%out: memref<?xi32>, %n: index) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %some = arith.cmpi ult, %tid, %n : index
      scf.if %some {
        %v = memref.load %out[%tid] : memref<?xi32>
        %a, %pa = gpu.shuffle xor %v, %c1, %c32 : i32
        memref.store %a, %out[%tid] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @shuffle_width(%out: memref<?xi32>, %width: i32) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : i32
      %v = memref.load %out[%tid] : memref<?xi32>
      %a, %pa = gpu.shuffle xor %v, %c1, %width : i32
      memref.store %a, %out[%tid] : memref<?xi32>
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
    %c32_i32 = arith.constant 32 : i32
    gpu.launch_func @kernels::@butterfly blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%out : memref<?xi32>)
    gpu.launch_func @kernels::@broadcast_loop blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%out : memref<?xi32>, %n : index)
    gpu.launch_func @kernels::@switch blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%out : memref<?xi32>, %n : index)
    gpu.launch_func @kernels::@shuffle_divergent blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%out : memref<?xi32>, %n : index)
    gpu.launch_func @kernels::@shuffle_width blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%out : memref<?xi32>, %c32_i32 : i32)
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
// CHECK:               %[[V:.*]] = memref.load %[[OUT]][%[[X]]]
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

// The block function of @butterfly: the first loop over the threads stores
// each thread's value in a buffer, as an i32 (not as the i64 the runtime's
// shuffle takes), with a subgroup's worth of elements on either side. The
// next reads its source lane's for the xor by 1: the element before its own
// or the one after it, by the lane's bit, two loads of consecutive
// elements; and it stores what the idx shuffle moves. The last reads that
// at the subgroup's first lane plus the source lane (a gather). The lane
// ids, source lanes and validity are computed again in each loop, not kept
// in buffers, and no shuffle calls the runtime.
// CHECK:       func.func private @__gpu_runner_kernels_butterfly_block(
// CHECK-NOT:     memref<?xi1>
// CHECK-NOT:     memref<?xi64>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[V:.*]] = memref.load %[[OUT:.*]][%{{.*}}] : memref<?xi32>
// CHECK:               memref.store %[[V]], %[[FIRST:.*]][%[[I:.*]]] : memref<?xi32, strided<[1], offset: 32>>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[MINUS:.*]] = arith.constant -1 : index
// CHECK-NEXT:          %[[J:.*]] = arith.addi %[[I2:.*]], %[[MINUS]] : index
// CHECK-NEXT:          %[[LOWER:.*]] = memref.load %[[FIRST]][%[[J]]]
// CHECK-NEXT:          %[[PLUS:.*]] = arith.constant 1 : index
// CHECK-NEXT:          %[[K:.*]] = arith.addi %[[I2]], %[[PLUS]] : index
// CHECK-NEXT:          %[[UPPER:.*]] = memref.load %[[FIRST]][%[[K]]]
// CHECK-NEXT:          arith.select %{{.*}}, %[[LOWER]], %[[UPPER]] : i32
// CHECK:               memref.store %{{.*}}, %[[SECOND:.*]][%{{.*}}] : memref<?xi32, strided<[1], offset: 32>>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[SOURCE:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT:          memref.load %[[SECOND]][%[[SOURCE]]]
// CHECK:               memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xi32>
// CHECK-NOT:     mgpuHostShuffleAt
// CHECK:         return
