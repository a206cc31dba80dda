// RUN: %gpu-runner-opt --gpu-runner-host-kernels=subgroup-vectors=false %s | FileCheck %s

// A piece of a kernel cut at barriers whose work all runs under
// `thread_id_x < u`, u the same for every thread, loops over x only up to
// min(u, block size in x), in every row of the block; any other piece loops
// over all the threads. A kernel that runs a subgroup at a time
// (SubgroupVectors.h) runs such a piece as this loop too.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A level of a tree reduction: only the threads below %u add.
    gpu.func @level(%u: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %active = arith.cmpi ult, %tid, %u : index
      scf.if %active {
        %j = arith.addi %tid, %u : index
        %a = memref.load %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
        %b = memref.load %shared[%j] : memref<64xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %a, %b : i32
        memref.store %s, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      gpu.return
    }

    // The same comparison written `u > thread_id_x`.
    gpu.func @swapped(%u: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      gpu.barrier
      %active = arith.cmpi ugt, %u, %tid : index
      scf.if %active {
        %one = arith.constant 1 : i32
        memref.store %one, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      gpu.return
    }

    // Work for every thread in the same piece as the branch: every thread
    // runs the piece.
    gpu.func @mixed(%u: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      gpu.barrier
      %zero = arith.constant 0 : i32
      memref.store %zero, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      %active = arith.cmpi ult, %tid, %u : index
      scf.if %active {
        %one = arith.constant 1 : i32
        memref.store %one, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      gpu.return
    }

    // A condition on the y id: every thread runs the piece.
    gpu.func @rows(%u: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id y
      gpu.barrier
      %active = arith.cmpi ult, %tid, %u : index
      scf.if %active {
        %one = arith.constant 1 : i32
        memref.store %one, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      gpu.return
    }

    // The comparison is used after the next barrier too, where every thread
    // computes it again: the piece still runs only below u.
    gpu.func @again(%u: index, %out: memref<?xi1>)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      gpu.barrier
      %active = arith.cmpi ult, %tid, %u : index
      scf.if %active {
        %one = arith.constant 1 : i32
        memref.store %one, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      memref.store %active, %out[%tid] : memref<?xi1>
      gpu.return
    }

    // A value of the piece is used after the next barrier: every thread
    // computes it and keeps it in a buffer.
    gpu.func @kept(%u: index, %out: memref<?xi32>)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %w = memref.load %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %one = arith.constant 1 : i32
      %w1 = arith.addi %w, %one : i32
      %active = arith.cmpi ult, %tid, %u : index
      scf.if %active {
        memref.store %one, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      memref.store %w1, %out[%tid] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main(%u: index, %out: memref<?xi32>, %flags: memref<?xi1>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@level blocks in (%c1, %c1, %c1) threads in (%u, %c1, %c1)
        args(%u : index)
    gpu.launch_func @kernels::@swapped blocks in (%c1, %c1, %c1) threads in (%u, %c1, %c1)
        args(%u : index)
    gpu.launch_func @kernels::@mixed blocks in (%c1, %c1, %c1) threads in (%u, %c1, %c1)
        args(%u : index)
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%u, %c1, %c1)
        args(%u : index)
    gpu.launch_func @kernels::@again blocks in (%c1, %c1, %c1) threads in (%u, %c1, %c1)
        args(%u : index, %flags : memref<?xi1>)
    gpu.launch_func @kernels::@kept blocks in (%c1, %c1, %c1) threads in (%u, %c1, %c1)
        args(%u : index, %out : memref<?xi32>)
    return
  }
}

// The first piece runs for every thread; the level's loop over x stops at
// min(u, block size in x), inside the loops over z and y, whose bounds are
// the block's; the linear id still counts whole rows, and the comparison is
// true there.
// CHECK-LABEL: func.func private @__gpu_runner_kernels_level_block(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[U:.*]]: index)
// CHECK:         %[[BDX_SLOT:.*]] = llvm.getelementptr %{{.*}}[6]
// CHECK:         %[[BDX_I64:.*]] = llvm.load %[[BDX_SLOT]]
// CHECK:         %[[BDX:.*]] = arith.index_cast %[[BDX_I64]] : i64 to index
// CHECK:         %[[BDY_SLOT:.*]] = llvm.getelementptr %{{.*}}[7]
// CHECK:         %[[BDY_I64:.*]] = llvm.load %[[BDY_SLOT]]
// CHECK:         %[[BDY:.*]] = arith.index_cast %[[BDY_I64]] : i64 to index
// CHECK:         %[[BDZ_SLOT:.*]] = llvm.getelementptr %{{.*}}[8]
// CHECK:         %[[BDZ_I64:.*]] = llvm.load %[[BDZ_SLOT]]
// CHECK:         %[[BDZ:.*]] = arith.index_cast %[[BDZ_I64]] : i64 to index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BDZ]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[BDY]]
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[BDX]]
// CHECK:               memref.store
// CHECK:         %[[BOUND:.*]] = arith.minui %[[U]], %[[BDX]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BDZ]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[BDY]]
// CHECK:             scf.for %[[X:.*]] = %{{.*}} to %[[BOUND]]
// CHECK-NOT:           arith.cmpi
// CHECK:               %[[TRUE:.*]] = arith.constant true
// CHECK:               scf.if %[[TRUE]] {
// CHECK:                 %[[J:.*]] = arith.addi %[[X]], %[[U]] : index
// CHECK:                 memref.load %{{.*}}[%[[X]]]
// CHECK:                 memref.load %{{.*}}[%[[J]]]
// CHECK:                 memref.store
// CHECK:         return

// CHECK-LABEL: func.func private @__gpu_runner_kernels_swapped_block(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[U:.*]]: index)
// CHECK:         %[[BDX_SLOT:.*]] = llvm.getelementptr %{{.*}}[6]
// CHECK:         %[[BDX_I64:.*]] = llvm.load %[[BDX_SLOT]]
// CHECK:         %[[BDX:.*]] = arith.index_cast %[[BDX_I64]] : i64 to index
// CHECK:         %[[BOUND:.*]] = arith.minui %[[U]], %[[BDX]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BOUND]]
// CHECK-NOT:       arith.cmpi
// CHECK:           scf.if %{{.*}} {
// CHECK:         return

// Every thread runs the pieces of @mixed and @rows, and the second piece of
// @kept.
// CHECK-LABEL: func.func private @__gpu_runner_kernels_mixed_block(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[U:[a-z0-9_]+]]: index
// CHECK-NOT:     arith.minui %[[U]]
// CHECK:         arith.cmpi ult
// CHECK:         return

// CHECK-LABEL: func.func private @__gpu_runner_kernels_rows_block(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[U:[a-z0-9_]+]]: index
// CHECK-NOT:     arith.minui %[[U]]
// CHECK:         arith.cmpi ult
// CHECK:         return

// CHECK-LABEL: func.func private @__gpu_runner_kernels_again_block(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[U:[a-z0-9_]+]]: index, %[[OUT:[a-z0-9_]+]]: memref<?xi1>
// CHECK:         %[[BDX_SLOT:.*]] = llvm.getelementptr %{{.*}}[6]
// CHECK:         %[[BDX_I64:.*]] = llvm.load %[[BDX_SLOT]]
// CHECK:         %[[BDX:.*]] = arith.index_cast %[[BDX_I64]] : i64 to index
// CHECK:         %[[BOUND:.*]] = arith.minui %[[U]], %[[BDX]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BOUND]]
// CHECK:           scf.if
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BDX]]
// CHECK:           %[[ACTIVE:.*]] = arith.cmpi ult, %[[X:[a-z0-9_]+]], %[[U]] : index
// CHECK:           memref.store %[[ACTIVE]], %[[OUT]][%[[X]]]
// CHECK:         return

// CHECK-LABEL: func.func private @__gpu_runner_kernels_kept_block(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[U:[a-z0-9_]+]]: index
// CHECK-NOT:     arith.minui %[[U]]
// CHECK:         arith.cmpi ult
// CHECK:         return
