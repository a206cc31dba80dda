// --check-bounds on CUDA checks the host code (gpu-runner-verify-host-code),
// as on every backend, and leaves the kernels compiled for the GPU as they
// are: the host's load gets its check and a call of mgpuAssertFailedAt at
// its location, the kernel's load no call of the host backend's
// mgpuHostCheckAccessAt. How the checks fail is in
// standin/check-bounds-host.mlir.
// REQUIRES: cuda-runner
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --check-bounds --print-ir-after-all %s 2>&1 | FileCheck %s
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-lowering %s 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: IR Dump After VerifyHostCode
// CHECK:         gpu.binary @kernels
// CHECK-LABEL:   func.func @main
// CHECK:           cf.assert %{{.*}}, "out-of-bounds access" {gpu_runner.runtime_op_name = "memcheck: memref.load"}
// CHECK-LABEL: IR Dump After CheckLowered
// CHECK-NOT:     mgpuHostCheckAccessAt
// CHECK-DAG:     llvm.func @mgpuAssertFailedAt(!llvm.ptr, !llvm.ptr)
// CHECK-DAG:     "out-of-bounds access\00"
// CHECK-DAG:     "memcheck: memref.load@{{.*}}check-bounds-host.mlir:[[# @LINE + 24]]:10\00"
// CHECK:         llvm.call @mgpuAssertFailedAt

// OFF-NOT: mgpuAssertFailedAt

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<?xi32>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %in = gpu.alloc (%c4) : memref<?xi32>
    %out = gpu.alloc (%c4) : memref<?xi32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%in : memref<?xi32>, %out : memref<?xi32>)
    %host = memref.alloc (%c4) : memref<?xi32>
    gpu.memcpy %host, %out : memref<?xi32>, memref<?xi32>
    %c3 = arith.constant 3 : index
    %v = memref.load %host[%c3] : memref<?xi32>
    return
  }
}
