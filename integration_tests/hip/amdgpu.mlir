// AMD's own kernel ops (the amdgpu dialect) compile for AMD GPUs with
// upstream's convert-amdgpu-to-rocdl, for the chip asked for: a buffer
// load and store, an LDS barrier and a matrix fused multiply-add, which is
// v_mfma_f32_16x16x4f32 on gfx90a and v_mfma_f32_16x16x4_f32 on gfx942. The
// host backend and gpu-runner-cuda refuse these ops by name
// (errors/unsupported/amdgpu-host.mlir, lowering/refuse-target-ops-invalid.mlir).
// REQUIRES: hip-runner
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a --print-ir-after-all %s 2>&1 | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx90a --dump-gpu-binary=%t %s
// RUN: llvm-objdump --disassemble --mcpu=gfx90a %t/kernels.hsaco | FileCheck %s --check-prefix=GFX90A
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx942 --dump-gpu-binary=%t %s
// RUN: llvm-objdump --disassemble --mcpu=gfx942 %t/kernels.hsaco | FileCheck %s --check-prefix=GFX942

// IR-LABEL: IR Dump After ConvertAMDGPUToROCDLPass
// IR:         rocdl.raw.ptr.buffer.load
// IR:         rocdl.mfma.f32.16x16x4f32
// IR:         rocdl.raw.ptr.buffer.store
// GFX90A-LABEL: <fma>:
// GFX90A:         buffer_load_dword
// GFX90A:         v_mfma_f32_16x16x4f32
// GFX90A:         buffer_store_dword
// GFX942-LABEL: <fma>:
// GFX942:         buffer_load_dword
// GFX942:         v_mfma_f32_16x16x4_f32
// GFX942:         buffer_store_dword

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each of 64 lanes loads one element; the wave multiplies a 16x4 by a
    // 4x16 matrix of them.
    gpu.func @fma(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %lane = gpu.thread_id x
      %i = arith.index_cast %lane : index to i32
      %a = amdgpu.raw_buffer_load %in[%i] : memref<64xf32>, i32 -> f32
      amdgpu.lds_barrier
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.mfma 16x16x4 %a * %a + %zero blgp = none
          : f32, f32, vector<4xf32>
      %x = vector.extract %d[0] : f32 from vector<4xf32>
      amdgpu.raw_buffer_store %x -> %out[%i] : f32 -> memref<64xf32>, i32
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %in = gpu.alloc () : memref<64xf32>
    %out = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@fma blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%in : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
