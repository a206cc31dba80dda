// Launch configurations no GPU accepts are errors at the launch, before any
// thread runs.
// RUN: %expect-exit-1 %gpu-runner %s -e zero_grid 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %expect-exit-1 %gpu-runner %s -e too_many_threads 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: %expect-exit-1 %gpu-runner %s -e too_much_shared_memory 2>&1 | FileCheck %s --check-prefix=SHARED

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      memref.store %one, %out[%c0] : memref<1xi32>
      gpu.return
    }
  }

  func.func @zero_grid() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %out = gpu.alloc () : memref<1xi32>
    // ZERO: launch-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': grid size 0 in y: every dimension of the grid and of a block must be at least 1
    gpu.launch_func @kernels::@k blocks in (%c1, %c0, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xi32>)
    return
  }

  func.func @too_many_threads() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<1xi32>
    // THREADS: launch-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': a block of 64 x 64 x 1 = 4096 threads: a block has at most 1024 threads
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c64, %c1) args(%out : memref<1xi32>)
    return
  }

  func.func @too_much_shared_memory() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 300000 : i32
    %out = gpu.alloc () : memref<1xi32>
    // SHARED: launch-invalid.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': 0 bytes of static and 300000 bytes of dynamic workgroup memory: a block has at most 232448 bytes
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes args(%out : memref<1xi32>)
    return
  }
}
