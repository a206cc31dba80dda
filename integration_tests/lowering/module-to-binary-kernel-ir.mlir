// RUN: %gpu-runner-opt --gpu-runner-module-to-binary=format=isa %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-module-to-binary=format=isa %s | FileCheck %s --check-prefix=OBJECT

// gpu-runner-module-to-binary, the CUDA pipeline's last kernel pass: the
// gpu.module becomes the gpu.binary upstream's gpu-module-to-binary makes
// (here PTX, without ptxas), which also keeps the module's final LLVM IR as
// bitcode (its magic: 'BC' 0xC0DE) for a driver stand-in.

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @store(%p: !llvm.ptr, %v: i32) attributes {nvvm.kernel} {
      llvm.store %v, %p : i32, !llvm.ptr
      llvm.return
    }
  }
}

// CHECK-NOT: gpu.module
// CHECK: gpu.binary @kernels {gpu_runner.kernel_ir = "BC\C0\DE{{.*}}"} [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "
// OBJECT: .visible .entry store(
