// Math ops that the AMDGPU code generator has no instruction and no library
// call for (tanh, atan2, tan, sinh, cosh) compile to calls of ROCm's ocml
// functions, linked from the device libraries for the chip: the code object
// has nothing left undefined, for a wave64 gfx9 chip and a wave32 gfx11 one.
// They stopped the compile with "no libcall available for ftanh" before.
// REQUIRES: hip-runner
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx90a --dump-gpu-binary=%t --print-ir-after-all %s 2>&1 | FileCheck %s
// RUN: llvm-nm -u %t/kernels.hsaco | FileCheck %s --allow-empty --check-prefix=UNDEFINED
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx1100 --dump-gpu-binary=%t --print-ir-after-all %s 2>&1 | FileCheck %s
// RUN: llvm-nm -u %t/kernels.hsaco | FileCheck %s --allow-empty --check-prefix=UNDEFINED

// CHECK-LABEL: IR Dump After MathToOcml
// CHECK-DAG:   llvm.call @__ocml_tanh_f32(
// CHECK-DAG:   llvm.call @__ocml_atan2_f32(
// CHECK-DAG:   llvm.call @__ocml_tan_f32(
// CHECK-DAG:   llvm.call @__ocml_sinh_f64(
// CHECK-DAG:   llvm.call @__ocml_cosh_f16(
// CHECK-DAG:   llvm.call @__ocml_tan_f64(
// CHECK-LABEL: IR Dump After ConvertGpuOpsToROCDLOps
// CHECK-NOT:   llvm.intr.{{tanh|atan2|tan|sinh|cosh}}(
// CHECK-LABEL: IR Dump After

// UNDEFINED-NOT: {{.}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @math(%a: memref<64xf32>, %b: memref<64xf64>,
                   %c: memref<64xf16>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      %t = math.tanh %x : f32
      %u = math.atan2 %t, %x : f32
      %v = math.tan %u : f32
      memref.store %v, %a[%i] : memref<64xf32>
      %y = memref.load %b[%i] : memref<64xf64>
      %s = math.sinh %y : f64
      %w = math.tan %s : f64
      memref.store %w, %b[%i] : memref<64xf64>
      %z = memref.load %c[%i] : memref<64xf16>
      %h = math.cosh %z : f16
      memref.store %h, %c[%i] : memref<64xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = gpu.alloc () : memref<64xf32>
    %b = gpu.alloc () : memref<64xf64>
    %c = gpu.alloc () : memref<64xf16>
    gpu.launch_func @kernels::@math blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf64>, %c : memref<64xf16>)
    gpu.dealloc %a : memref<64xf32>
    gpu.dealloc %b : memref<64xf64>
    gpu.dealloc %c : memref<64xf16>
    return
  }
}
