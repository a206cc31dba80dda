// A 2x3 block of f32 copied into the window at row 2, column 1 of a 6x6
// device matrix is one 2-D copy: rows of 12 bytes, 12 apart in the block and
// 24 apart in the matrix, starting 13 elements (52 bytes) into it.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// OUT:      [0,   0,   0,   0,   0,   0],
// OUT-NEXT: [0,   0,   0,   0,   0,   0],
// OUT-NEXT: [0,   1,   1,   1,   0,   0],
// OUT-NEXT: [0,   1,   1,   1,   0,   0],
// OUT-NEXT: [0,   0,   0,   0,   0,   0],
// OUT-NEXT: [0,   0,   0,   0,   0,   0]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %block = memref.alloc() : memref<2x3xf32>
  linalg.fill ins(%one : f32) outs(%block : memref<2x3xf32>)
  // CUDA: cuMemAlloc_v2(bytesize=144) -> CUDA_SUCCESS [*dptr=[[M:alloc#[0-9]+]]+0]
  // HIP:  hipMalloc(size=144) -> hipSuccess [*ptr=[[M:alloc#[0-9]+]]+0]
  %matrix = gpu.alloc () : memref<6x6xf32>
  gpu.memset %matrix, %zero : memref<6x6xf32>, f32
  %window = memref.subview %matrix[2, 1] [2, 3] [1, 1]
      : memref<6x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 13>>

  // CUDA:      cuMemcpy2DAsync_v2(pCopy={srcMemoryType=UNIFIED, srcDevice=host, srcPitch=12, dstMemoryType=UNIFIED, dstDevice=[[M]]+52, dstPitch=24, WidthInBytes=12, Height=2}, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=legacy) -> CUDA_SUCCESS
  // HIP:       hipMemcpy2DAsync(dst=[[M]]+52, dpitch=24, src=host, spitch=12, width=12, height=2, kind=hipMemcpyDefault, stream=null) -> hipSuccess
  // HIP-NEXT:  hipStreamSynchronize(stream=null) -> hipSuccess
  gpu.memcpy %window, %block : memref<2x3xf32, strided<[6, 1], offset: 13>>, memref<2x3xf32>

  // CUDA-NEXT: cuMemcpyAsync(dst=host, src=[[M]]+0, ByteCount=144, hStream=legacy) -> CUDA_SUCCESS
  // HIP-NEXT:  hipMemcpyAsync(dst=host, src=[[M]]+0, sizeBytes=144, kind=hipMemcpyDefault, stream=null) -> hipSuccess
  %result = memref.alloc() : memref<6x6xf32>
  gpu.memcpy %result, %matrix : memref<6x6xf32>, memref<6x6xf32>
  gpu.dealloc %matrix : memref<6x6xf32>
  %u = memref.cast %result : memref<6x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
