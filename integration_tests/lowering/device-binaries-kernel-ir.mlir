// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// A gpu.binary that keeps its kernel IR (gpu_runner.kernel_ir, CUDA) gets a
// constant holding it, which its loader gives the module right after
// loading it; one whose IR comes from outside (gpu_runner.external_kernel_ir)
// reads it and its size from external constants, as its object; one without
// IR gives nothing.

module attributes {gpu.container_module} {
  gpu.binary @held {gpu_runner.kernel_ir = "BC\C0\DEir"} [#gpu.object<#nvvm.target<chip = "sm_90">, "FATBIN">]
  gpu.binary @outside {gpu_runner.external_object, gpu_runner.external_kernel_ir} [#gpu.object<#nvvm.target<chip = "sm_90">, "">]
  gpu.binary @none [#gpu.object<#nvvm.target<chip = "sm_90">, "FATBIN">]

  func.func @main(%n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @held::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%n : i32)
    gpu.launch_func @outside::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%n : i32)
    gpu.launch_func @none::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}

// CHECK: llvm.mlir.global internal constant @__gpu_runner_binary_held("FATBIN")
// CHECK: llvm.mlir.global internal constant @__gpu_runner_kernel_ir_held("BC\C0\DEir") {addr_space = 0 : i32, alignment = 16 : i64}
// CHECK-LABEL: llvm.func internal @__gpu_runner_load_held()
// CHECK: %[[MODULE:.*]] = llvm.call @mgpuModuleLoadAt(
// CHECK: llvm.store %[[MODULE]], %{{.*}}
// CHECK: %[[IR:.*]] = llvm.mlir.addressof @__gpu_runner_kernel_ir_held
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK: llvm.call @mgpuModuleAttachIRAt(%[[MODULE]], %[[IR]], %[[SIZE]], %{{.*}})
// CHECK: llvm.call @mgpuModuleGetFunctionAt(%[[MODULE]],

// CHECK: llvm.mlir.global external constant @__gpu_runner_kernel_ir_outside() {{.*}} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global external constant @__gpu_runner_kernel_ir_size_outside() {{.*}} : i64
// CHECK-LABEL: llvm.func internal @__gpu_runner_load_outside()
// CHECK: %[[MODULE:.*]] = llvm.call @mgpuModuleLoadAt(
// CHECK: %[[IR:.*]] = llvm.mlir.addressof @__gpu_runner_kernel_ir_outside
// CHECK: %[[SIZE_ADDRESS:.*]] = llvm.mlir.addressof @__gpu_runner_kernel_ir_size_outside
// CHECK: %[[SIZE:.*]] = llvm.load %[[SIZE_ADDRESS]] : !llvm.ptr -> i64
// CHECK: llvm.call @mgpuModuleAttachIRAt(%[[MODULE]], %[[IR]], %[[SIZE]], %{{.*}})

// CHECK-LABEL: llvm.func internal @__gpu_runner_load_none()
// CHECK-NOT: mgpuModuleAttachIRAt
// CHECK: llvm.func internal @__gpu_runner_unload_none()
