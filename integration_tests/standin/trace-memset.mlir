// Which driver call each gpu.memset width becomes (wrappers/cuda/README.md,
// wrappers/hip/README.md): 8, 16 and 32-bit values the driver's memset of
// that width; 64-bit values whose halves are equal a 32-bit memset of twice
// the count; other 64-bit values two strided 32-bit memsets of alternate
// words on CUDA, a copy from a host pattern on HIP. Strided rows become 2-D
// memsets where the driver has them (all three widths on CUDA, bytes on
// HIP), else one memset per row.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// OUT: [1,  1,  1,  1]
// OUT: [2,  2,  2,  2]
// OUT: [3,  3,  3,  3]
// OUT: [-1,  -1,  -1,  -1]
// OUT: [4294967298,  4294967298,  4294967298,  4294967298]
// OUT:      {{\[}}[5,   5,   0,   0],
// OUT-NEXT:  [5,   5,   0,   0],
// OUT-NEXT:  [5,   5,   0,   0]]
// OUT:      {{\[}}[6,   6,   0,   0],
// OUT-NEXT:  [6,   6,   0,   0],
// OUT-NEXT:  [6,   6,   0,   0]]

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)

func.func @main() {
  %v8 = arith.constant 1 : i8
  %d8 = gpu.alloc () : memref<4xi8>
  // CUDA: cuMemsetD8Async(dstDevice=[[A8:alloc#[0-9]+]]+0, uc=0x1, N=4, hStream=legacy) -> CUDA_SUCCESS
  // HIP:  hipMemsetD8Async(dst=[[A8:alloc#[0-9]+]]+0, value=0x1, count=4, stream=null) -> hipSuccess
  gpu.memset %d8, %v8 : memref<4xi8>, i8
  %h8 = memref.alloc() : memref<4xi8>
  gpu.memcpy %h8, %d8 : memref<4xi8>, memref<4xi8>
  %w8 = memref.alloc() : memref<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %h8[%i] : memref<4xi8>
    %y = arith.extsi %x : i8 to i32
    memref.store %y, %w8[%i] : memref<4xi32>
  }
  %u8 = memref.cast %w8 : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u8) : (memref<*xi32>) -> ()

  %v16 = arith.constant 2 : i16
  %d16 = gpu.alloc () : memref<4xi16>
  // CUDA: cuMemsetD16Async(dstDevice=[[A16:alloc#[0-9]+]]+0, us=0x2, N=4, hStream=legacy) -> CUDA_SUCCESS
  // HIP:  hipMemsetD16Async(dst=[[A16:alloc#[0-9]+]]+0, value=0x2, count=4, stream=null) -> hipSuccess
  gpu.memset %d16, %v16 : memref<4xi16>, i16
  %h16 = memref.alloc() : memref<4xi16>
  gpu.memcpy %h16, %d16 : memref<4xi16>, memref<4xi16>
  %w16 = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %h16[%i] : memref<4xi16>
    %y = arith.extsi %x : i16 to i32
    memref.store %y, %w16[%i] : memref<4xi32>
  }
  %u16 = memref.cast %w16 : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u16) : (memref<*xi32>) -> ()

  %v32 = arith.constant 3 : i32
  %d32 = gpu.alloc () : memref<4xi32>
  // CUDA: cuMemsetD32Async(dstDevice=[[A32:alloc#[0-9]+]]+0, ui=0x3, N=4, hStream=legacy) -> CUDA_SUCCESS
  // HIP:  hipMemsetD32Async(dst=[[A32:alloc#[0-9]+]]+0, value=0x3, count=4, stream=null) -> hipSuccess
  gpu.memset %d32, %v32 : memref<4xi32>, i32
  %h32 = memref.alloc() : memref<4xi32>
  gpu.memcpy %h32, %d32 : memref<4xi32>, memref<4xi32>
  %u32 = memref.cast %h32 : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u32) : (memref<*xi32>) -> ()

  // 64 bits, both halves 0xffffffff.
  %same = arith.constant -1 : i64
  %d64 = gpu.alloc () : memref<4xi64>
  // CUDA: cuMemsetD32Async(dstDevice=[[A64:alloc#[0-9]+]]+0, ui=0xffffffff, N=8, hStream=legacy) -> CUDA_SUCCESS
  // HIP:  hipMemsetD32Async(dst=[[A64:alloc#[0-9]+]]+0, value=0xffffffff, count=8, stream=null) -> hipSuccess
  gpu.memset %d64, %same : memref<4xi64>, i64
  %h64 = memref.alloc() : memref<4xi64>
  gpu.memcpy %h64, %d64 : memref<4xi64>, memref<4xi64>
  %u64 = memref.cast %h64 : memref<4xi64> to memref<*xi64>
  call @printMemrefI64(%u64) : (memref<*xi64>) -> ()

  // 64 bits, halves 2 (low) and 1 (high).
  %differ = arith.constant 4294967298 : i64
  // CUDA:      cuMemsetD2D32Async(dstDevice=[[A64]]+0, dstPitch=8, ui=0x2, Width=1, Height=4, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuMemsetD2D32Async(dstDevice=[[A64]]+4, dstPitch=8, ui=0x1, Width=1, Height=4, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=legacy)
  // HIP:       hipMemcpyAsync(dst=[[A64]]+0, src=host, sizeBytes=32, kind=hipMemcpyDefault, stream=null) -> hipSuccess
  // HIP-NEXT:  hipStreamSynchronize(stream=null)
  gpu.memset %d64, %differ : memref<4xi64>, i64
  gpu.memcpy %h64, %d64 : memref<4xi64>, memref<4xi64>
  call @printMemrefI64(%u64) : (memref<*xi64>) -> ()

  // The first two columns of a 3x4 matrix: three rows of two elements, a
  // row's 4 elements apart.
  %m8 = gpu.alloc () : memref<3x4xi8>
  %z8 = arith.constant 0 : i8
  gpu.memset %m8, %z8 : memref<3x4xi8>, i8
  %cols8 = memref.subview %m8[0, 0] [3, 2] [1, 1]
      : memref<3x4xi8> to memref<3x2xi8, strided<[4, 1]>>
  %f8 = arith.constant 5 : i8
  // CUDA: cuMemsetD2D8Async(dstDevice=[[M8:alloc#[0-9]+]]+0, dstPitch=4, uc=0x5, Width=2, Height=3, hStream=legacy) -> CUDA_SUCCESS
  // HIP:  hipMemset2DAsync(dst=[[M8:alloc#[0-9]+]]+0, pitch=4, value=0x5, width=2, height=3, stream=null) -> hipSuccess
  gpu.memset %cols8, %f8 : memref<3x2xi8, strided<[4, 1]>>, i8
  %hm8 = memref.alloc() : memref<3x4xi8>
  gpu.memcpy %hm8, %m8 : memref<3x4xi8>, memref<3x4xi8>
  %wm8 = memref.alloc() : memref<3x4xi32>
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %hm8[%i, %j] : memref<3x4xi8>
      %y = arith.extsi %x : i8 to i32
      memref.store %y, %wm8[%i, %j] : memref<3x4xi32>
    }
  }
  %um8 = memref.cast %wm8 : memref<3x4xi32> to memref<*xi32>
  call @printMemrefI32(%um8) : (memref<*xi32>) -> ()

  %m32 = gpu.alloc () : memref<3x4xi32>
  %z32 = arith.constant 0 : i32
  gpu.memset %m32, %z32 : memref<3x4xi32>, i32
  %cols32 = memref.subview %m32[0, 0] [3, 2] [1, 1]
      : memref<3x4xi32> to memref<3x2xi32, strided<[4, 1]>>
  %f32 = arith.constant 6 : i32
  // CUDA:      cuMemsetD2D32Async(dstDevice=[[M32:alloc#[0-9]+]]+0, dstPitch=16, ui=0x6, Width=2, Height=3, hStream=legacy) -> CUDA_SUCCESS
  // HIP:       hipMemsetD32Async(dst=[[M32:alloc#[0-9]+]]+0, value=0x6, count=2, stream=null) -> hipSuccess
  // HIP-NEXT:  hipMemsetD32Async(dst=[[M32]]+16, value=0x6, count=2, stream=null) -> hipSuccess
  // HIP-NEXT:  hipMemsetD32Async(dst=[[M32]]+32, value=0x6, count=2, stream=null) -> hipSuccess
  gpu.memset %cols32, %f32 : memref<3x2xi32, strided<[4, 1]>>, i32
  %hm32 = memref.alloc() : memref<3x4xi32>
  gpu.memcpy %hm32, %m32 : memref<3x4xi32>, memref<3x4xi32>
  %um32 = memref.cast %hm32 : memref<3x4xi32> to memref<*xi32>
  call @printMemrefI32(%um32) : (memref<*xi32>) -> ()

  gpu.dealloc %d8 : memref<4xi8>
  gpu.dealloc %d16 : memref<4xi16>
  gpu.dealloc %d32 : memref<4xi32>
  gpu.dealloc %d64 : memref<4xi64>
  gpu.dealloc %m8 : memref<3x4xi8>
  gpu.dealloc %m32 : memref<3x4xi32>
  return
}
