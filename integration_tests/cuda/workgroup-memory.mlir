// Workgroup memory on NVIDIA GPUs, where upstream's NVVM lowering gets two
// things wrong:
// - the size of gpu.dynamic_shared_memory's memref is the launch's dynamic
//   shared memory size, the %dynamic_smem_size register (upstream's gives
//   0);
// - a shared variable defined without an alignment gets 16 bytes: LLVM's
//   optimizer takes a defined global larger than 16 bytes to have that
//   alignment (DataLayout::getPreferredAlign) and marks its accesses so,
//   while NVPTX declares it `.align` of its type's alignment only, so the
//   IR would promise an alignment the PTX does not give. The dynamic part,
//   a declaration's, keeps its own.
// REQUIRES: cuda-runner
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %s 2>&1 | FileCheck %s

// CHECK-LABEL: (gpu-runner-dynamic-shared-size-to-nvvm)
// CHECK:         %[[BYTES:.*]] = nvvm.read.ptx.sreg.dynamic.smem.size : i32
// CHECK:         %[[WIDE:.*]] = arith.extui %[[BYTES]] : i32 to i64
// CHECK:         %[[SIZE:.*]] = arith.index_castui %[[WIDE]] : i64 to index
// CHECK:         arith.index_cast %[[SIZE]] : index to i32
// CHECK-NOT:     memref.dim
// CHECK-LABEL: (gpu-runner-align-shared-globals)
// CHECK-DAG:     llvm.mlir.global internal @__wg_kernel_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<33 x i32>
// CHECK-DAG:     llvm.mlir.global internal @__wg_kernel_1() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i32>
// CHECK-LABEL: IR Dump After

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%out: memref<?xi32>)
        workgroup(%buffer: memref<33xi32, #gpu.address_space<workgroup>>,
                  %aligned: memref<2xi32, #gpu.address_space<workgroup>> {llvm.align = 8 : i64}) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %bytes = memref.dim %raw, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      %bytes32 = arith.index_cast %bytes : index to i32
      memref.store %bytes32, %buffer[%tid] : memref<33xi32, #gpu.address_space<workgroup>>
      memref.store %bytes32, %aligned[%c1] : memref<2xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %buffer[%c0] : memref<33xi32, #gpu.address_space<workgroup>>
      %w = memref.load %aligned[%c1] : memref<2xi32, #gpu.address_space<workgroup>>
      %s = arith.addi %v, %w : i32
      memref.store %s, %out[%tid] : memref<?xi32>
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
