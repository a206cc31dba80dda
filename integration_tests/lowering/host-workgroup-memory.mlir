// RUN: %gpu-runner-opt --gpu-runner-host-kernels --gpu-runner-gpu-to-llvm --reconcile-unrealized-casts %s | FileCheck %s

// On the host backend workgroup memory is plain host memory: address space
// 0, as the kernel's other memory, so that LLVM can check at run time
// whether a loop's accesses to both overlap (it checks no pair of pointers
// in different address spaces) and vectorize it: here the copy of a block's
// inputs into workgroup memory.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stage(%in: memref<?xi32>)
        workgroup(%tile: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %tile[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      gpu.return
    }
  }

  func.func @main(%in: memref<?xi32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@stage blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%in : memref<?xi32>)
    return
  }
}

// CHECK-LABEL: llvm.func @__gpu_runner_kernels_stage_block(
// CHECK-NOT:     llvm.addrspacecast
// CHECK-NOT:     ptr<3>
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK-NOT:     ptr<3>
// CHECK:         llvm.store %[[V]], %{{.*}} : i32, !llvm.ptr
// CHECK:         llvm.return
