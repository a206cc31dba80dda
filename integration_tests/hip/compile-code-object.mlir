// A kernel compiles to an AMDGPU code object for the chip asked for,
// without a GPU: --compile-only runs nothing. The device libraries and
// ld.lld are found where Debian installs them.
// REQUIRES: hip-runner
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx90a --dump-gpu-binary=%t %s
// RUN: llvm-readobj --file-headers %t/kernels.hsaco | FileCheck %s --check-prefix=GFX90A
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx942 --dump-gpu-binary=%t %s
// RUN: llvm-readobj --file-headers %t/kernels.hsaco | FileCheck %s --check-prefix=GFX942
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --dump-gpu-binary=%t %s
// RUN: llvm-readobj --file-headers %t/kernels.hsaco | FileCheck %s --check-prefix=GFX90A

// GFX90A: Machine: EM_AMDGPU
// GFX90A: EF_AMDGPU_MACH_AMDGCN_GFX90A
// GFX942: Machine: EM_AMDGPU
// GFX942: EF_AMDGPU_MACH_AMDGCN_GFX942

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<256xf32>, %factor: f32) kernel {
      %block = gpu.block_id x
      %dim = gpu.block_dim x
      %thread = gpu.thread_id x
      %base = arith.muli %block, %dim : index
      %i = arith.addi %base, %thread : index
      %x = memref.load %data[%i] : memref<256xf32>
      %e = math.exp %x : f32
      %y = arith.mulf %e, %factor : f32
      %sum = gpu.subgroup_reduce add %y : (f32) -> (f32)
      memref.store %sum, %data[%i] : memref<256xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %factor = arith.constant 2.0 : f32
    %data = gpu.alloc () : memref<256xf32>
    gpu.launch_func @kernels::@scale blocks in (%c2, %c1, %c1)
        threads in (%c128, %c1, %c1)
        args(%data : memref<256xf32>, %factor : f32)
    gpu.dealloc %data : memref<256xf32>
    return
  }
}
