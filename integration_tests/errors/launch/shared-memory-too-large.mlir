// More workgroup memory than a block can have: static attributions alone,
// and static plus dynamic.
// RUN: %expect-exit-1 %gpu-runner %s -e static_only 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %expect-exit-1 %gpu-runner %s -e both 2>&1 | FileCheck %s --check-prefix=BOTH

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @huge(%out: memref<1xf32>) workgroup(%tile: memref<60000xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %tile[%c0] : memref<60000xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<1xf32>
      gpu.return
    }

    gpu.func @half(%out: memref<1xf32>) workgroup(%tile: memref<30000xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %tile[%c0] : memref<30000xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }

  func.func @static_only() {
    %c1 = arith.constant 1 : index
    %out = gpu.alloc () : memref<1xf32>
    // STATIC: shared-memory-too-large.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'huge': 240000 bytes of static and 0 bytes of dynamic workgroup memory: a block has at most 232448 bytes (227 KiB), the most an H100 or H200 block can have
    gpu.launch_func @kernels::@huge blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xf32>)
    return
  }

  func.func @both() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 120000 : i32
    %out = gpu.alloc () : memref<1xf32>
    // BOTH: shared-memory-too-large.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'half': 120000 bytes of static and 120000 bytes of dynamic workgroup memory: a block has at most 232448 bytes
    gpu.launch_func @kernels::@half blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes args(%out : memref<1xf32>)
    return
  }
}
