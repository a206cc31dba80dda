// The size of gpu.dynamic_shared_memory's memref on AMD GPUs, which
// upstream's ROCDL lowering gives as 0: the work-group's LDS allocation,
// the kernel dispatch packet's group_segment_size (a uint32_t at byte 28;
// HSA Platform System Architecture Specification, "Kernel Dispatch
// Packet"), less the kernel's static LDS, llvm.amdgcn.groupstaticsize.
// The program itself runs in run/kernels/dynamic-shared-memory.mlir.
// REQUIRES: hip-runner
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a --print-ir-after-all %s 2>&1 | FileCheck %s

// CHECK-LABEL: (gpu-runner-dynamic-shared-size-to-rocdl)
// CHECK:         %[[PACKET:.*]] = llvm.call_intrinsic "llvm.amdgcn.dispatch.ptr"() : () -> !llvm.ptr<4>
// CHECK:         %[[FIELD:.*]] = llvm.getelementptr inbounds %[[PACKET]][28] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
// CHECK:         %[[TOTAL:.*]] = llvm.load %[[FIELD]] invariant {alignment = 4 : i64} : !llvm.ptr<4> -> i32
// CHECK:         %[[STATIC:.*]] = llvm.call_intrinsic "llvm.amdgcn.groupstaticsize"() : () -> i32
// CHECK:         %[[BYTES:.*]] = arith.subi %[[TOTAL]], %[[STATIC]] : i32
// CHECK:         %[[WIDE:.*]] = arith.extui %[[BYTES]] : i32 to i64
// CHECK:         %[[SIZE:.*]] = arith.index_castui %[[WIDE]] : i64 to index
// CHECK:         arith.index_cast %[[SIZE]] : index to i32
// CHECK-NOT:     memref.dim
// CHECK-LABEL: IR Dump After

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %bytes = memref.dim %raw, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      %bytes32 = arith.index_cast %bytes : index to i32
      memref.store %bytes32, %out[%tid] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %shared = arith.constant 64 : i32
    %out = gpu.alloc (%c32) : memref<?xi32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        dynamic_shared_memory_size %shared args(%out : memref<?xi32>)
    gpu.dealloc %out : memref<?xi32>
    return
  }
}
