// RUN: %gpu-runner-opt --gpu-runner-host-kernels %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A kernel without barriers or shuffles: its block function loops over
    // the threads, x innermost.
    // CHECK:       gpu.func @copy(
    // CHECK-SAME:    gpu_runner.host_entry = @[[COPY_ENTRY:__gpu_runner_kernels_copy_entry]]
    // CHECK-SAME:    gpu_runner.static_shared_bytes = 0 : i64
    // CHECK-NOT:     gpu_runner.uses_fibers
    gpu.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %b[%i] : memref<?xf32>
      gpu.return
    }

    // A kernel with a barrier and a shuffle whose width is not a constant
    // runs its threads on fibers.
    // CHECK:       gpu.func @sync(
    // CHECK-SAME:    gpu_runner.host_entry = @[[SYNC_ENTRY:__gpu_runner_kernels_sync_entry]]
    // CHECK-SAME:    gpu_runner.static_shared_bytes = 144 : i64
    // CHECK-SAME:    gpu_runner.uses_fibers
    gpu.func @sync(%out: memref<?xf32>)
        workgroup(%x: memref<3xi32, #gpu.address_space<workgroup>>, %y: memref<32xf32, #gpu.address_space<workgroup>>)
        private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id y
      %bid = gpu.block_id z
      %v = memref.load %y[%tid] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      gpu.barrier
      %offset = arith.constant 1 : i32
      %bdim = gpu.block_dim x
      %width = arith.index_cast %bdim : index to i32
      %s, %valid = gpu.shuffle down %v, %offset, %width : f32
      %w = func.call @helper(%s) : (f32) -> f32
      memref.store %w, %out[%bid] : memref<?xf32>
      gpu.return
    }

    // A device function reached from a kernel takes the ids too.
    func.func @helper(%v: f32) -> f32 {
      %lane = gpu.lane_id
      gpu.printf "lane %ld: %f\n", %lane, %v : index, f32
      return %v : f32
    }
  }

  func.func @main(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>)
    gpu.launch_func @kernels::@sync blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%a : memref<?xf32>)
    return
  }
}

// The thread function: the context, thread ids, block ids, block sizes, grid
// sizes, then the kernel's arguments; ids read those arguments.
// CHECK:       func.func private @[[COPY:__gpu_runner_kernels_copy]](%[[CTX:.*]]: !llvm.ptr, %[[TX:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>)
// CHECK:         memref.load %[[A]][%[[TX]]]
// CHECK:         return

// Workgroup attributions come right after the ids; private ones are stack
// memory cast to their address space; gpu.barrier and gpu.shuffle call the
// runtime with the context.
// CHECK:       func.func private @[[SYNC:__gpu_runner_kernels_sync]](%[[CTX:[^:]*]]: !llvm.ptr, %{{[^:]*}}: index, %[[TY:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[BZ:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[X:[^:]*]]: memref<3xi32, #gpu.address_space<workgroup>>, %[[Y:[^:]*]]: memref<32xf32, #gpu.address_space<workgroup>>, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK:         %[[STACK:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         %[[P:.*]] = memref.memory_space_cast %[[STACK]] : memref<4xf32> to memref<4xf32, #gpu.address_space<private>>
// CHECK:         %[[V:.*]] = memref.load %[[Y]][%[[TY]]]
// CHECK:         memref.store %[[V]], %[[P]]
// CHECK:         llvm.call @mgpuHostBarrierAt(%[[CTX]], %{{.*}})
// CHECK:         %[[RAW:.*]] = llvm.call @mgpuHostShuffleAt(%[[CTX]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         %[[W:.*]] = call @[[HELPER:__gpu_runner_kernels_helper]](%[[CTX]],
// CHECK:         memref.store %[[W]], %[[OUT]][%[[BZ]]]

// CHECK:       func.func private @[[HELPER]](%[[CTX:[^:]*]]: !llvm.ptr,
// CHECK:         llvm.call @printf(

// The loop of a block without fibers, over the block size read from the
// context; the entry unpacks the struct the launch packed.
// CHECK:       func.func private @[[COPY_BLOCK:__gpu_runner_kernels_copy_block]](%[[CTX:.*]]: !llvm.ptr, %[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>)
// CHECK:         scf.for %[[Z:.*]] =
// CHECK:           scf.for %[[Y:.*]] =
// CHECK:             scf.for %[[X:.*]] =
// CHECK:               func.call @[[COPY]](%[[CTX]], %[[X]], %[[Y]], %[[Z]], {{.*}}, %[[A]], %[[B]])
// CHECK:       func.func private @[[COPY_ENTRY]](%[[CTX:.*]]: !llvm.ptr, %[[ARGS:.*]]: !llvm.ptr)
// CHECK:         %[[PACKED:.*]] = llvm.load %[[ARGS]] : !llvm.ptr -> !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK:         call @[[COPY_BLOCK]](%[[CTX]],

// With fibers, the block function runs one thread: its ids come from the
// context, and the attributions are views of the block's workgroup memory at
// 16-byte aligned offsets, plain host memory in address space 0.
// CHECK:       func.func private @[[SYNC_BLOCK:__gpu_runner_kernels_sync_block]](%[[CTX:.*]]: !llvm.ptr, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         %[[SHARED:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<144xi8, #gpu.address_space<workgroup>>
// CHECK:         %[[VX:.*]] = memref.view %[[SHARED]][%{{.*}}][] : memref<144xi8, #gpu.address_space<workgroup>> to memref<3xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[VY:.*]] = memref.view %[[SHARED]][%[[C16]]][] : memref<144xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[TID:.*]] = llvm.getelementptr %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NOT:     scf.for
// CHECK:         call @[[SYNC]](%[[CTX]], {{.*}}, %[[VX]], %[[VY]], %[[OUT]])
// CHECK:       func.func private @[[SYNC_ENTRY]](
