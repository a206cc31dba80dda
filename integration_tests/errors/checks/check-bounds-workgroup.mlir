// Workgroup memory is checked by shape, on fibers too (a shuffle makes each
// GPU thread a fiber).
// RUN: %expect-exit-1 %gpu-runner %s --check-bounds 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stage(%out: memref<32xf32>)
        workgroup(%tile: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      %x = arith.constant 1.0 : f32
      %v, %valid = gpu.shuffle xor %x, %c1_i32, %c32_i32 : f32
      // Off by one: thread 31 writes element 32.
      %next = arith.addi %tid, %c1 : index
      // CHECK: check-bounds-workgroup.mlir:[[# @LINE + 1]]:7: error: memcheck: memref.store: out-of-bounds store in kernel 'stage', block (0, 0, 0), thread (31, 0, 0): index 32 of dimension 0 is outside [0, 32), the memref's size there
      memref.store %v, %tile[%next] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %tile[%tid] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tid] : memref<32xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@stage blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    gpu.dealloc %out : memref<32xf32>
    return
  }
}
