// Faults of the program's host code on the CUDA and HIP backends are
// contained as on the host backend: an error that says what happened and
// where, and exit status 1, never a crash by a signal. The programs are the
// host backend's tests in errors/, with their checks: reached
// llvm.unreachable, a stack overflow, memref.dealloc of gpu.alloc's memory,
// an entry point that returns gpu.alloc's memory; and this file's store far
// past a host memref.
// The program's malloc and free are the sanitizer's under AddressSanitizer.
// UNSUPPORTED: sanitizers
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 %gpu-runner-cuda-standin %S/../errors/asserts/unreachable-host.mlir 2>&1 | FileCheck %S/../errors/asserts/unreachable-host.mlir
// RUN: %expect-exit-1 %gpu-runner-hip-standin %S/../errors/asserts/unreachable-host.mlir 2>&1 | FileCheck %S/../errors/asserts/unreachable-host.mlir
// RUN: %expect-exit-1 %gpu-runner-cuda-standin %S/../errors/faults/host-stack-overflow.mlir 2>&1 | FileCheck %S/../errors/faults/host-stack-overflow.mlir
// RUN: %expect-exit-1 %gpu-runner-hip-standin %S/../errors/faults/host-stack-overflow.mlir 2>&1 | FileCheck %S/../errors/faults/host-stack-overflow.mlir
// RUN: %expect-exit-1 %gpu-runner-cuda-standin %S/../errors/heap/dealloc-device-memory.mlir 2>&1 | FileCheck %S/../errors/heap/dealloc-device-memory.mlir
// RUN: %expect-exit-1 %gpu-runner-hip-standin %S/../errors/heap/dealloc-device-memory.mlir 2>&1 | FileCheck %S/../errors/heap/dealloc-device-memory.mlir
// RUN: %expect-exit-1 %gpu-runner-cuda-standin %S/../errors/data/data-device-result.mlir --input=4xf32=1 2>&1 | FileCheck %S/../errors/data/data-device-result.mlir
// RUN: %expect-exit-1 %gpu-runner-hip-standin %S/../errors/data/data-device-result.mlir --input=4xf32=1 2>&1 | FileCheck %S/../errors/data/data-device-result.mlir
// RUN: %expect-exit-1 %gpu-runner-cuda-standin %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner-hip-standin %s 2>&1 | FileCheck %s

// A store 2^40 elements past a memref of 16: far outside anything mapped.
// The memref is printed after, so that the store stays.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %m = memref.alloc() : memref<16xf32>
  %far = arith.constant 1099511627776 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%far] : memref<16xf32>
  %u = memref.cast %m : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<16xf32>
  return
}

// CHECK-NOT: PLEASE submit
// CHECK: error: invalid memory access at 0x{{[0-9a-f]+}} in the program's host code (outside any kernel), in @main{{$}}
