// The warp matrix programs of the run suite compile for NVIDIA GPUs with
// upstream's NVVM lowering, to the wmma instructions of each shape, type
// and layout: a transposed load or store is the column-major form of the
// instruction, and a_transpose makes the multiply read A column-major. The
// f64 shape needs sm_80 or newer (PTX ISA, wmma), as does every chip the
// tests compile for here.
// REQUIRES: cuda-runner, ptxas
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %S/../run/kernels/mma-transpose.mlir 2>&1 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %S/../run/kernels/mma-shapes.mlir 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %S/../run/kernels/mma-int8.mlir 2>&1 | FileCheck %s --check-prefix=INT8
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_80 --dump-gpu-binary=%t %S/../run/kernels/mma-shapes.mlir
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=FATBIN

// FATBIN: elf sm_80 (ELF for sm_80)

// TRANSPOSE-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// TRANSPOSE-LABEL: llvm.func @transposed
// TRANSPOSE:         nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32}
// TRANSPOSE:         nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<b>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32}
// TRANSPOSE:         nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<f32>, frag = #nvvm.mma_frag<c>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32}
// TRANSPOSE:         nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f32>, k = 16 : i32, layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32}
// TRANSPOSE:         nvvm.wmma.store {{.*}} {eltype = #nvvm.mma_type<f32>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32}
// TRANSPOSE-LABEL: IR Dump After

// SHAPES-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// SHAPES-LABEL: llvm.func @m8n8k4_f64
// SHAPES:         nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<f64>, eltypeB = #nvvm.mma_type<f64>, k = 4 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 8 : i32, n = 8 : i32}
// SHAPES-LABEL: llvm.func @m32n8k16_f32
// SHAPES:         nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 32 : i32, n = 8 : i32}
// SHAPES-LABEL: llvm.func @m8n32k16_f16
// SHAPES:         nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f16>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 8 : i32, n = 32 : i32}
// SHAPES-LABEL: IR Dump After

// INT8-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// INT8-LABEL: llvm.func @matmul_si8
// INT8:         nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<s8>, eltypeB = #nvvm.mma_type<s32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32}
// INT8-LABEL: llvm.func @matmul_ui8
// INT8:         nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<u8>, eltypeB = #nvvm.mma_type<s32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32}
// INT8-LABEL: IR Dump After
