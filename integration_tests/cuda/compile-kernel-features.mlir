// What the NVVM lowering of kernels takes: reductions, shuffles, barriers,
// workgroup and dynamic shared memory, printf, math, atomics and an inline
// gpu.launch, all compiled for sm_90 without a GPU.
// REQUIRES: cuda-runner, ptxas
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/main_kernel.fatbin | FileCheck %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s

// CHECK: elf sm_90 (ELF for sm_90)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<64xf32>, %out: memref<1xf32>)
        workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<64xf32>
      memref.store %x, %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %tile[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      %sum = gpu.all_reduce add %y uniform {} : (f32) -> (f32)
      %warp = gpu.subgroup_reduce add %y : (f32) -> (f32)
      %lane = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %shuffled, %valid = gpu.shuffle xor %warp, %lane, %width : f32
      %both = arith.addf %sum, %shuffled : f32
      %dynamic = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %old = memref.atomic_rmw addf %both, %out[%c0] : (f32, memref<1xf32>) -> f32
      gpu.printf "thread %ld: %f\n", %t, %old : index, f32
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %smem = arith.constant 256 : i32
    %in = gpu.alloc () : memref<64xf32>
    %out = gpu.alloc () : memref<1xf32>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) dynamic_shared_memory_size %smem
        args(%in : memref<64xf32>, %out : memref<1xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %v = memref.load %in[%tx] : memref<64xf32>
      %s = math.sqrt %v : f32
      memref.store %s, %in[%tx] : memref<64xf32>
      gpu.terminator
    }
    gpu.dealloc %in : memref<64xf32>
    gpu.dealloc %out : memref<1xf32>
    return
  }
}
