// A kernel compiles to a fatbin holding machine code and PTX for the chip
// asked for, without a GPU: --compile-only runs nothing.
// REQUIRES: cuda-runner, ptxas
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=SM90
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_75 --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=SM75
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_90a --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=SM90A

// SM90: elf sm_90 (ELF for sm_90)
// SM90-NEXT: ptx sm_90
// SM75: elf sm_75 (ELF for sm_75)
// SM75-NEXT: ptx sm_75
// SM90A: elf sm_90 (ELF for sm_90)

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
      memref.store %y, %data[%i] : memref<256xf32>
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
