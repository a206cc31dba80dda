// Strided copies become the fewest rectangle copies the strides allow: a
// column of a 4x8 matrix is one 2-D copy of 4-byte rows, 32 bytes apart; a
// 2x2x2x2 box of a 2x3x4x5 array is two 3-D copies, one per index of the
// outermost dimension, since no pitch reaches across it.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// OUT: [3,  11,  19,  27]
// OUT: [28,  29,  33,  34,  48,  49,  53,  54,  88,  89,  93,  94,  108,  109,  113,  114]

func.func private @printMemrefF32(memref<*xf32>)

func.func @fillWithIndex(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.sitofp %ii : i32 to f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

func.func @main() {
  // A 4x8 matrix holding 0..31 on the device.
  %values = memref.alloc() : memref<32xf32>
  %dyn = memref.cast %values : memref<32xf32> to memref<?xf32>
  call @fillWithIndex(%dyn) : (memref<?xf32>) -> ()
  %flat = gpu.alloc () : memref<32xf32>
  gpu.memcpy %flat, %values : memref<32xf32>, memref<32xf32>
  %matrix = memref.expand_shape %flat [[0, 1]] output_shape [4, 8]
      : memref<32xf32> into memref<4x8xf32>

  // Column 3.
  // CUDA: cuMemcpy2DAsync_v2(pCopy={srcMemoryType=UNIFIED, srcDevice=[[M:alloc#[0-9]+]]+12, srcPitch=32, dstMemoryType=UNIFIED, dstDevice=host, dstPitch=4, WidthInBytes=4, Height=4}, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=legacy)
  // HIP:  hipMemcpy2DAsync(dst=host, dpitch=4, src=[[M:alloc#[0-9]+]]+12, spitch=32, width=4, height=4, kind=hipMemcpyDefault, stream=null) -> hipSuccess
  // HIP-NEXT: hipStreamSynchronize(stream=null)
  %column = memref.subview %matrix[0, 3] [4, 1] [1, 1]
      : memref<4x8xf32> to memref<4x1xf32, strided<[8, 1], offset: 3>>
  %columnHost = memref.alloc() : memref<4x1xf32>
  gpu.memcpy %columnHost, %column
      : memref<4x1xf32>, memref<4x1xf32, strided<[8, 1], offset: 3>>
  %columnFlat = memref.collapse_shape %columnHost [[0, 1]]
      : memref<4x1xf32> into memref<4xf32>
  %c = memref.cast %columnFlat : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%c) : (memref<*xf32>) -> ()

  // A 2x3x4x5 array holding 0..119, and the box at (0, 1, 1, 3).
  %values4 = memref.alloc() : memref<120xf32>
  %dyn4 = memref.cast %values4 : memref<120xf32> to memref<?xf32>
  call @fillWithIndex(%dyn4) : (memref<?xf32>) -> ()
  %flat4 = gpu.alloc () : memref<120xf32>
  gpu.memcpy %flat4, %values4 : memref<120xf32>, memref<120xf32>
  %array = memref.expand_shape %flat4 [[0, 1, 2, 3]] output_shape [2, 3, 4, 5]
      : memref<120xf32> into memref<2x3x4x5xf32>
  %box = memref.subview %array[0, 1, 1, 3] [2, 2, 2, 2] [1, 1, 1, 1]
      : memref<2x3x4x5xf32> to memref<2x2x2x2xf32, strided<[60, 20, 5, 1], offset: 28>>
  %boxHost = memref.alloc() : memref<2x2x2x2xf32>
  // Rows of 8 bytes, 20 apart; slices of 4 rows (80 bytes); one copy at
  // element 28 (112 bytes), the other 60 elements (240 bytes) further.
  // CUDA:      cuMemcpy3DAsync_v2(pCopy={srcMemoryType=UNIFIED, srcDevice=[[B:alloc#[0-9]+]]+112, srcPitch=20, srcHeight=4, dstMemoryType=UNIFIED, dstDevice=host, dstPitch=8, dstHeight=2, WidthInBytes=8, Height=2, Depth=2}, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuMemcpy3DAsync_v2(pCopy={srcMemoryType=UNIFIED, srcDevice=[[B]]+352, srcPitch=20, srcHeight=4, dstMemoryType=UNIFIED, dstDevice=host, dstPitch=8, dstHeight=2, WidthInBytes=8, Height=2, Depth=2}, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=legacy)
  // HIP:       hipMemcpy3DAsync(p={srcPtr=[[B:alloc#[0-9]+]]+112, srcPos=0,0,0, srcPitch=20, srcYsize=4, dstPtr=host, dstPos=0,0,0, dstPitch=8, dstYsize=2, extent=8x2x2, kind=hipMemcpyDefault}, stream=null) -> hipSuccess
  // HIP-NEXT:  hipMemcpy3DAsync(p={srcPtr=[[B]]+352, srcPos=0,0,0, srcPitch=20, srcYsize=4, dstPtr=host, dstPos=0,0,0, dstPitch=8, dstYsize=2, extent=8x2x2, kind=hipMemcpyDefault}, stream=null) -> hipSuccess
  // HIP-NEXT:  hipStreamSynchronize(stream=null)
  gpu.memcpy %boxHost, %box
      : memref<2x2x2x2xf32>, memref<2x2x2x2xf32, strided<[60, 20, 5, 1], offset: 28>>
  %boxFlat = memref.collapse_shape %boxHost [[0, 1, 2, 3]]
      : memref<2x2x2x2xf32> into memref<16xf32>
  %b = memref.cast %boxFlat : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%b) : (memref<*xf32>) -> ()

  gpu.dealloc %flat : memref<32xf32>
  gpu.dealloc %flat4 : memref<120xf32>
  return
}
