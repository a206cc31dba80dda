// How gpu.memcpy reaches the driver, call by call: an asynchronous copy is
// one cuMemcpyAsync / hipMemcpyAsync on its token's stream; a synchronous one
// runs on the legacy (null) stream and waits for it.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// OUT: [7,  7,  7,  7,  7,  7,  7,  7]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c7 = arith.constant 7 : i32
  %host = memref.alloc() : memref<8xi32>
  linalg.fill ins(%c7 : i32) outs(%host : memref<8xi32>)
  %result = memref.alloc() : memref<8xi32>

  // CUDA:      cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S:stream#[0-9]+]]]
  // CUDA-NEXT: cuMemAlloc_v2(bytesize=32) -> CUDA_SUCCESS [*dptr=[[A:alloc#[0-9]+]]+0]
  // CUDA-NEXT: cuMemcpyAsync(dst=[[A]]+0, src=host, ByteCount=32, hStream=[[S]]) -> CUDA_SUCCESS
  // HIP:       hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S:stream#[0-9]+]]]
  // HIP-NEXT:  hipMalloc(size=32) -> hipSuccess [*ptr=[[A:alloc#[0-9]+]]+0]
  // HIP-NEXT:  hipMemcpyAsync(dst=[[A]]+0, src=host, sizeBytes=32, kind=hipMemcpyDefault, stream=[[S]]) -> hipSuccess
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] () : memref<8xi32>
  %t2 = gpu.memcpy async [%t1] %dev, %host : memref<8xi32>, memref<8xi32>

  // gpu.wait waits for the stream, then keeps it for reuse once it is idle.
  // CUDA-NEXT: cuStreamSynchronize(hStream=[[S]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamQuery(hStream=[[S]]) -> CUDA_SUCCESS
  // HIP-NEXT:  hipStreamSynchronize(stream=[[S]]) -> hipSuccess
  // HIP-NEXT:  hipStreamQuery(stream=[[S]]) -> hipSuccess
  gpu.wait [%t2]

  // CUDA-NEXT: cuMemcpyAsync(dst=host, src=[[A]]+0, ByteCount=32, hStream=legacy) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=legacy) -> CUDA_SUCCESS
  // HIP-NEXT:  hipMemcpyAsync(dst=host, src=[[A]]+0, sizeBytes=32, kind=hipMemcpyDefault, stream=null) -> hipSuccess
  // HIP-NEXT:  hipStreamSynchronize(stream=null) -> hipSuccess
  gpu.memcpy %result, %dev : memref<8xi32>, memref<8xi32>

  // CUDA-NEXT: cuMemFree_v2(dptr=[[A]]+0) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=legacy) -> CUDA_SUCCESS
  // HIP-NEXT:  hipFree(ptr=[[A]]+0) -> hipSuccess
  // HIP-NEXT:  hipStreamSynchronize(stream=null) -> hipSuccess
  gpu.dealloc %dev : memref<8xi32>
  %u = memref.cast %result : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
