// NVIDIA's own kernel ops (the nvgpu dialect) compile for NVIDIA GPUs with
// upstream's convert-nvgpu-to-nvvm, for sm_80 and newer: an asynchronous
// copy to shared memory (cp.async) with its group, matrix loads (ldmatrix)
// and a warp mma (mma.sync m16n8k16). sm_90's own ops:
// nvgpu-sm90a.mlir. The host backend refuses these ops by name
// (errors/unsupported/nvgpu-host.mlir).
// REQUIRES: cuda-runner, ptxas
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_80 --print-ir-after-all %s 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_80 --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=FATBIN80
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_90a --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=FATBIN90A

// SM80-LABEL: IR Dump After ConvertNVGPUToNVVMPass
// SM80-LABEL: gpu.func @mma
// SM80:         nvvm.cp.async.shared.global {{.*}}, 16, cache = ca
// SM80:         nvvm.cp.async.commit.group
// SM80:         nvvm.cp.async.wait.group 0
// SM80:         nvvm.ldmatrix {{.*}} num = 4 : i32
// SM80:         nvvm.ldmatrix {{.*}} num = 2 : i32
// SM80:         nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>
// FATBIN80: elf sm_80 (ELF for sm_80)
// FATBIN90A: elf sm_90 (ELF for sm_90)

#shared = #gpu.address_space<workgroup>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A 16x16 A (row-major) and an 8x16 B (its columns as rows) through
    // shared memory into one m16n8k16 mma.
    gpu.func @mma(%a: memref<16x16xf16>, %b: memref<8x16xf16>,
                  %c: memref<16x8xf32>)
        workgroup(%sa : memref<16x16xf16, #shared>,
                  %sb : memref<8x16xf16, #shared>)
        kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %lane = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %row = arith.remui %lane, %c16 : index
      %brow = arith.remui %lane, %c8 : index
      %copy = nvgpu.device_async_copy %a[%row, %c0], %sa[%row, %c0], 8
          : memref<16x16xf16> to memref<16x16xf16, #shared>
      %copyb = nvgpu.device_async_copy %b[%brow, %c0], %sb[%brow, %c0], 8
          : memref<8x16xf16> to memref<8x16xf16, #shared>
      %group = nvgpu.device_async_create_group %copy, %copyb
      nvgpu.device_async_wait %group
      gpu.barrier
      %fa = nvgpu.ldmatrix %sa[%row, %c0] {numTiles = 4 : i32, transpose = false}
          : memref<16x16xf16, #shared> -> vector<4x2xf16>
      %fb = nvgpu.ldmatrix %sb[%c0, %c0] {numTiles = 2 : i32, transpose = false}
          : memref<8x16xf16, #shared> -> vector<2x2xf16>
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      %d = nvgpu.mma.sync(%fa, %fb, %zero) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %x = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
      memref.store %x, %c[%row, %c0] : memref<16x8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = gpu.alloc () : memref<16x16xf16>
    %b = gpu.alloc () : memref<8x16xf16>
    %c = gpu.alloc () : memref<16x8xf32>
    gpu.launch_func @kernels::@mma blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %b : memref<8x16xf16>,
             %c : memref<16x8xf32>)
    return
  }
}
