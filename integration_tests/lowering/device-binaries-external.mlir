// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// A gpu.binary marked gpu_runner.external_object holds no object: the
// object, compiled apart, and its size are external constants that the
// runner defines when it loads the program; the constructor reads the size.

module attributes {gpu.container_module} {
  gpu.binary @kernels {gpu_runner.external_object} [#gpu.object<#nvvm.target<chip = "sm_90">, "">]

  func.func @main(%data: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%data : memref<8xf32>)
    return
  }
}

// CHECK: llvm.mlir.global external constant @__gpu_runner_binary_kernels() {{.*}} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global external constant @__gpu_runner_binary_size_kernels() {{.*}} : i64
// CHECK-LABEL: llvm.func internal @__gpu_runner_load_kernels()
// CHECK: %[[DATA:.*]] = llvm.mlir.addressof @__gpu_runner_binary_kernels
// CHECK: %[[SIZE_ADDRESS:.*]] = llvm.mlir.addressof @__gpu_runner_binary_size_kernels
// CHECK: %[[SIZE:.*]] = llvm.load %[[SIZE_ADDRESS]] : !llvm.ptr -> i64
// CHECK: llvm.call @mgpuModuleLoadAt(%[[DATA]], %[[SIZE]],
