// rocdl.ds_swizzle (DS_SWIZZLE_B32) on the HIP stand-in, in a block of 40
// threads: lanes 40 and up of the first wave do not exist. Lane i reads,
// by the ISA's pseudo-code (the offset an immediate):
// - offset[15] clear: lane ((i & and) | or) ^ xor of its group of 32 lanes,
//   the masks offset[4:0], [9:5] and [14:10]: a swap of neighbours (xor 1),
//   lane 3 of each 32 (and 0, or 3), and a swap of halves (xor 16), whose
//   lanes 32-39 read lanes 48-55, which are not active: 0, as the ISA
//   gives;
// - offset[15] set: within each four lanes, the lane that offset[2k+1:2k]
//   names for lane k: the four reversed (0x801b).
// The results are the same in waves of 32 (gfx1100), where lanes 32-39 are
// lanes 0-7 of the second wave and lanes 16-23 of it do not exist.
// The rotate and FFT modes (offset 0xc000 and up) are refused by name:
// kernels-refused.mlir.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %gpu-runner-hip-standin --no-cache %s | FileCheck %s
// RUN: env GPU_RUNNER_STANDIN_HIP_CHIP=gfx1100 %gpu-runner-hip-standin --gpu-chip=gfx1100 --no-cache %s | FileCheck %s

// CHECK:      [101,   100,   103,   102,   105,   104,   107,   106,   109,   108,   111,   110,   113,   112,   115,   114,   117,   116,   119,   118,   121,   120,   123,   122,   125,   124,   127,   126,   129,   128,   131,   130,   133,   132,   135,   134,   137,   136,   139,   138],
// CHECK-NEXT: [103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   103,   135,   135,   135,   135,   135,   135,   135,   135],
// CHECK-NEXT: [103,   102,   101,   100,   107,   106,   105,   104,   111,   110,   109,   108,   115,   114,   113,   112,   119,   118,   117,   116,   123,   122,   121,   120,   127,   126,   125,   124,   131,   130,   129,   128,   135,   134,   133,   132,   139,   138,   137,   136],
// CHECK-NEXT: [116,   117,   118,   119,   120,   121,   122,   123,   124,   125,   126,   127,   128,   129,   130,   131,   100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   113,   114,   115,   0,   0,   0,   0,   0,   0,   0,   0]]

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    gpu.func @swizzles(%out: memref<4x40xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c100 = arith.constant 100 : i32
      %v = arith.addi %ti, %c100 : i32
      %xor1 = llvm.mlir.constant(1055 : i32) : i32
      %lane3 = llvm.mlir.constant(96 : i32) : i32
      %reverse = llvm.mlir.constant(32795 : i32) : i32
      %xor16 = llvm.mlir.constant(16415 : i32) : i32
      %a = rocdl.ds_swizzle %v, %xor1 : (i32, i32) -> i32
      %b = rocdl.ds_swizzle %v, %lane3 : (i32, i32) -> i32
      %c = rocdl.ds_swizzle %v, %reverse : (i32, i32) -> i32
      %d = rocdl.ds_swizzle %v, %xor16 : (i32, i32) -> i32
      %r0 = arith.constant 0 : index
      %r1 = arith.constant 1 : index
      %r2 = arith.constant 2 : index
      %r3 = arith.constant 3 : index
      memref.store %a, %out[%r0, %t] : memref<4x40xi32>
      memref.store %b, %out[%r1, %t] : memref<4x40xi32>
      memref.store %c, %out[%r2, %t] : memref<4x40xi32>
      memref.store %d, %out[%r3, %t] : memref<4x40xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %out = gpu.alloc () : memref<4x40xi32>
    gpu.launch_func @kernels::@swizzles blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1)
        args(%out : memref<4x40xi32>)
    %host = memref.alloc () : memref<4x40xi32>
    gpu.memcpy %host, %out : memref<4x40xi32>, memref<4x40xi32>
    %u = memref.cast %host : memref<4x40xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<4x40xi32>
    memref.dealloc %host : memref<4x40xi32>
    return
  }
}
