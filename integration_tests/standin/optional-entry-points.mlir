// A driver may lack an entry point that only some programs need: a CUDA
// driver older than 12.0 has no cuLaunchKernelEx, which launches with thread
// block clusters. gpu-runner-cuda still starts on it and runs every program
// that launches without clusters; a launch with them says what is missing.
// HIP has no clusters at all, and says so.
// REQUIRES: cuda-standin-lib, hip-standin-lib, ptxas
// RUN: env GPU_RUNNER_CUDA_DRIVER=%cuda-old-standin-lib %gpu-runner-cuda --no-cache -e copy_only %s | FileCheck %s --check-prefix=RUNS
// RUN: %expect-exit-1 env GPU_RUNNER_CUDA_DRIVER=%cuda-old-standin-lib %gpu-runner-cuda --no-cache %s 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: %expect-exit-1 %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s --check-prefix=HIP

// RUNS: [4,  4]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%data: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %data[%i] : memref<4xf32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %data = gpu.alloc () : memref<4xf32>
    // CUDA: optional-entry-points.mlir:[[# @LINE + 3]]:5: error: gpu.launch_func: kernel 'fill': thread block clusters need cuLaunchKernelEx, which this NVIDIA driver does not provide (CUDA 12.0 and newer drivers do)
    // HIP:  optional-entry-points.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'fill': HIP has no thread block clusters
    // CHECK-NOT: error
    gpu.launch_func @kernels::@fill clusters in (%c2, %c1, %c1)
        blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1)
        args(%data : memref<4xf32>)
    gpu.dealloc %data : memref<4xf32>
    return
  }

  func.func @copy_only() {
    %four = arith.constant 4 : i32
    %dev = gpu.alloc () : memref<2xi32>
    gpu.memset %dev, %four : memref<2xi32>, i32
    %host = memref.alloc() : memref<2xi32>
    gpu.memcpy %host, %dev : memref<2xi32>, memref<2xi32>
    gpu.dealloc %dev : memref<2xi32>
    %u = memref.cast %host : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
