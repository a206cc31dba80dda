// gpu.alloc sizes are checked before the GPU runtimes are asked: a byte count
// that wraps (2^32 x (2^32 + 1) f32 would ask the driver for 16 GiB) or a
// negative size is an error at the op on CUDA and HIP as on the host, and
// the driver is never called to allocate.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %expect-exit-1 %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %expect-exit-1 %gpu-runner-hip-standin %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=HIP < %t.hip
// RUN: %expect-exit-1 %gpu-runner-cuda-standin -e negative %s 2>&1 | FileCheck %s --check-prefix=NEGATIVE --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner-hip-standin -e negative %s 2>&1 | FileCheck %s --check-prefix=NEGATIVE --implicit-check-not=error:

// CUDA-NOT: cuMemAlloc
// HIP-NOT: hipMalloc

func.func @main() {
  %a = arith.constant 4294967296 : index
  %b = arith.constant 4294967297 : index
  // CHECK: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: cannot allocate 4294967296 x 4294967297 elements of 4 bytes: that is more bytes than an index can count (9223372036854775807)
  %m = gpu.alloc (%a, %b) : memref<?x?xf32>
  gpu.dealloc %m : memref<?x?xf32>
  return
}

func.func @negative() {
  %n = arith.constant -3 : index
  // NEGATIVE: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: cannot allocate -3 elements of 4 bytes: size -3 (dimension 0) is negative
  %m = gpu.alloc (%n) : memref<?xf32>
  gpu.dealloc %m : memref<?xf32>
  return
}
