// A GPU binary that does not load: an error at the gpu.module, status 1.
// The stand-ins refuse, as the drivers do, code only for a newer chip than
// the device's (sm_90: an sm_100 cubin, PTX for sm_100) or another one
// (gfx90a: gfx942); fault injection makes the load fail outright.
// REQUIRES: cuda-standin-lib, hip-standin-lib, ptxas
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --no-cache --gpu-chip=sm_100 %s 2>&1 | FileCheck %s --check-prefix=CHIP -DERROR="CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available for execution on the device"
// The CUDA stand-in's trace says why: cuModuleLoadData has no log.
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.trace %expect-exit-1 %gpu-runner-cuda-standin --no-cache --gpu-chip=sm_100 %s > /dev/null 2>&1
// RUN: FileCheck %s --input-file=%t.trace --check-prefix=WHY
// WHY: cuModuleLoadData() -> CUDA_ERROR_NO_BINARY_FOR_GPU [why=the fatbin has code for sm_100, PTX for sm_100, none of it for the device's sm_90]
// RUN: %expect-exit-1 %gpu-runner-hip-standin --no-cache --gpu-chip=gfx942 %s 2>&1 | FileCheck %s --check-prefix=CHIP -DERROR="hipErrorNoBinaryForGpu: no kernel image is available for execution on the device"
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=cuModuleLoadData:1:CUDA_ERROR_INVALID_IMAGE %gpu-runner-cuda-standin --no-cache %s 2>&1 | FileCheck %s --check-prefix=FAULT -DERROR="CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid"
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_FAULTS=hipModuleLoadData:1:hipErrorInvalidImage %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s --check-prefix=FAULT -DERROR="hipErrorInvalidImage: device kernel image is invalid"

module attributes {gpu.container_module} {
  // CHIP: fault-module-load.mlir:[[# @LINE + 3]]:3: error: gpu.binary: [[ERROR]]: the kernels were compiled for another chip; run without --gpu-chip to compile for this device
  // FAULT: fault-module-load.mlir:[[# @LINE + 2]]:3: error: gpu.binary: [[ERROR]]
  // CHECK-NOT: error
  gpu.module @kernels {
    gpu.func @fill(%data: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %data[%i] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %data = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%data : memref<4xf32>)
    gpu.dealloc %data : memref<4xf32>
    return
  }
}
