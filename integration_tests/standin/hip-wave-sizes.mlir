// The wave size is the chip's (AMDGPUUsage, "Processors": 64 on GFX9, 32 by
// default on GFX10 and later): the same subgroup program, compiled for the
// device's chip, on the HIP stand-in played as a gfx90a (CDNA 2, waves of
// 64), a gfx1030 (RDNA 2) and a gfx1100 (RDNA 3), waves of 32. A block of 64
// threads is one subgroup or two. Rows: gpu.subgroup_size, gpu.subgroup_id,
// gpu.lane_id, the subgroup's sum of v = k + 1, and a shuffle xor 32 of
// width 64 (-v where not valid: in a wave of 32, lane k xor 32 is past the
// lanes the wave has).
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %gpu-runner-hip-standin --no-cache %s | FileCheck %s --check-prefix=WAVE64
// RUN: env GPU_RUNNER_STANDIN_HIP_CHIP=gfx942 %gpu-runner-hip-standin --no-cache %s | FileCheck %s --check-prefix=WAVE64
// RUN: env GPU_RUNNER_STANDIN_HIP_CHIP=gfx1030 %gpu-runner-hip-standin --no-cache %s | FileCheck %s --check-prefix=WAVE32
// RUN: env GPU_RUNNER_STANDIN_HIP_CHIP=gfx1100 %gpu-runner-hip-standin --no-cache %s | FileCheck %s --check-prefix=WAVE32
// A chip it does not play is a setting it cannot use.
// RUN: env GPU_RUNNER_STANDIN_HIP_CHIP=gfx803 %gpu-runner-hip-standin --no-cache %s 2>&1; test $? -eq 2
// RUN: not env GPU_RUNNER_STANDIN_HIP_CHIP=gfx803 %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: gpu-runner HIP runtime stand-in: GPU_RUNNER_STANDIN_HIP_CHIP=gfx803 is not a chip the stand-in plays: gfx90a, gfx942, gfx1030 or gfx1100

// WAVE64:      {{\[}}[64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64,  64],
// WAVE64-NEXT:  [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0],
// WAVE64-NEXT:  [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63],
// WAVE64-NEXT:  [2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080,  2080],
// WAVE64-NEXT:  [33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63,  64,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32]]
// WAVE32:      {{\[}}[32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32,  32],
// WAVE32-NEXT:  [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1],
// WAVE32-NEXT:  [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31],
// WAVE32-NEXT:  [528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552,  1552],
// WAVE32-NEXT:  [-1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  -9,  -10,  -11,  -12,  -13,  -14,  -15,  -16,  -17,  -18,  -19,  -20,  -21,  -22,  -23,  -24,  -25,  -26,  -27,  -28,  -29,  -30,  -31,  -32,  -33,  -34,  -35,  -36,  -37,  -38,  -39,  -40,  -41,  -42,  -43,  -44,  -45,  -46,  -47,  -48,  -49,  -50,  -51,  -52,  -53,  -54,  -55,  -56,  -57,  -58,  -59,  -60,  -61,  -62,  -63,  -64]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @subgroups(%out: memref<5x64xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %size = gpu.subgroup_size : index
      %id = gpu.subgroup_id : index
      %lane = gpu.lane_id
      %sizei = arith.index_cast %size : index to i32
      %idi = arith.index_cast %id : index to i32
      %lanei = arith.index_cast %lane : index to i32
      memref.store %sizei, %out[%c0, %t] : memref<5x64xi32>
      memref.store %idi, %out[%c1, %t] : memref<5x64xi32>
      memref.store %lanei, %out[%c2, %t] : memref<5x64xi32>
      %ti = arith.index_cast %t : index to i32
      %one = arith.constant 1 : i32
      %v = arith.addi %ti, %one : i32
      %sum = gpu.subgroup_reduce add %v : (i32) -> i32
      memref.store %sum, %out[%c3, %t] : memref<5x64xi32>
      %offset = arith.constant 32 : i32
      %width = arith.constant 64 : i32
      %s, %ok = gpu.shuffle xor %v, %offset, %width : i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %x = arith.select %ok, %s, %neg : i32
      memref.store %x, %out[%c4, %t] : memref<5x64xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<5x64xi32>
    gpu.launch_func @kernels::@subgroups blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<5x64xi32>)
    %h = memref.alloc () : memref<5x64xi32>
    gpu.memcpy %h, %out : memref<5x64xi32>, memref<5x64xi32>
    %u = memref.cast %h : memref<5x64xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<5x64xi32>
    gpu.dealloc %out : memref<5x64xi32>
    return
  }
}
