// RUN: %gpu-runner-opt --gpu-runner-host-kernels %s | FileCheck %s

// The cluster ops of a host kernel: the blocks per cluster come from the
// context (HostKernelContext::clusterDim, slots 15 to 17; 1 x 1 x 1 for a
// launch without clusters); the cluster's id in the grid and the clusters
// per grid divide the block id and the grid size by them, the block's id in
// its cluster is what is left.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%out: memref<4xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %a = gpu.cluster_id x
      %b = gpu.cluster_dim y
      %c = gpu.cluster_dim_blocks z
      %d = gpu.cluster_block_id x
      memref.store %a, %out[%c0] : memref<4xindex>
      memref.store %b, %out[%c1] : memref<4xindex>
      memref.store %c, %out[%c2] : memref<4xindex>
      memref.store %d, %out[%c3] : memref<4xindex>
      gpu.return
    }
  }
}

// The thread function: the context, thread ids (1-3), block ids (4-6),
// block sizes (7-9), grid sizes (10-12).
// CHECK-LABEL: func.func private @__gpu_runner_kernels_ids(
// CHECK-SAME:    %[[CTX:[^:]+]]: !llvm.ptr, %{{[^:]+}}: index, %{{[^:]+}}: index, %{{[^:]+}}: index, %[[BX:[^:]+]]: index, %{{[^:]+}}: index, %{{[^:]+}}: index, %{{[^:]+}}: index, %{{[^:]+}}: index, %{{[^:]+}}: index, %{{[^:]+}}: index, %[[GY:[^:]+]]: index, %{{[^:]+}}: index, %[[OUT:[^:]+]]: memref<4xindex>)
// CHECK:         %[[SX:.*]] = llvm.getelementptr %[[CTX]][15] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[NX:.*]] = llvm.load %[[SX]] : !llvm.ptr -> i64
// CHECK:         %[[CX:.*]] = arith.index_cast %[[NX]] : i64 to index
// CHECK:         %[[ID:.*]] = arith.divui %[[BX]], %[[CX]] : index
// CHECK:         %[[SY:.*]] = llvm.getelementptr %[[CTX]][16] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[NY:.*]] = llvm.load %[[SY]] : !llvm.ptr -> i64
// CHECK:         %[[CY:.*]] = arith.index_cast %[[NY]] : i64 to index
// CHECK:         %[[DIM:.*]] = arith.divui %[[GY]], %[[CY]] : index
// CHECK:         %[[SZ:.*]] = llvm.getelementptr %[[CTX]][17] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[NZ:.*]] = llvm.load %[[SZ]] : !llvm.ptr -> i64
// CHECK:         %[[BLOCKS:.*]] = arith.index_cast %[[NZ]] : i64 to index
// CHECK:         %[[SX2:.*]] = llvm.getelementptr %[[CTX]][15] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[NX2:.*]] = llvm.load %[[SX2]] : !llvm.ptr -> i64
// CHECK:         %[[CX2:.*]] = arith.index_cast %[[NX2]] : i64 to index
// CHECK:         %[[BID:.*]] = arith.remui %[[BX]], %[[CX2]] : index
// CHECK:         memref.store %[[ID]], %[[OUT]]
// CHECK:         memref.store %[[DIM]], %[[OUT]]
// CHECK:         memref.store %[[BLOCKS]], %[[OUT]]
// CHECK:         memref.store %[[BID]], %[[OUT]]
