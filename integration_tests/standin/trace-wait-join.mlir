// `gpu.wait async` with N tokens joins them into the first one's stream
// (wrappers/cuda/README.md): for each other token, an event without timing
// is recorded on its stream, the first stream waits for it, the event is
// destroyed and the joined stream released (kept if idle, else destroyed).
// The copy after the join runs on the first token's stream.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// OUT: [1,  1,  2,  2,  3,  3]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %dev = gpu.alloc () : memref<6xi32>
  %p0 = memref.subview %dev[0] [2] [1] : memref<6xi32> to memref<2xi32, strided<[1]>>
  %p1 = memref.subview %dev[2] [2] [1] : memref<6xi32> to memref<2xi32, strided<[1], offset: 2>>
  %p2 = memref.subview %dev[4] [2] [1] : memref<6xi32> to memref<2xi32, strided<[1], offset: 4>>

  // CUDA:      cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S0:stream#[0-9]+]]]
  // CUDA-NEXT: cuMemsetD32Async(dstDevice={{.*}}, hStream=[[S0]])
  // CUDA-NEXT: cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S1:stream#[0-9]+]]]
  // CUDA-NEXT: cuMemsetD32Async(dstDevice={{.*}}, hStream=[[S1]])
  // CUDA-NEXT: cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S2:stream#[0-9]+]]]
  // CUDA-NEXT: cuMemsetD32Async(dstDevice={{.*}}, hStream=[[S2]])
  // HIP:       hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S0:stream#[0-9]+]]]
  // HIP-NEXT:  hipMemsetD32Async(dst={{.*}}, stream=[[S0]])
  // HIP-NEXT:  hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S1:stream#[0-9]+]]]
  // HIP-NEXT:  hipMemsetD32Async(dst={{.*}}, stream=[[S1]])
  // HIP-NEXT:  hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S2:stream#[0-9]+]]]
  // HIP-NEXT:  hipMemsetD32Async(dst={{.*}}, stream=[[S2]])
  %t0 = gpu.memset async %p0, %one : memref<2xi32, strided<[1]>>, i32
  %t1 = gpu.memset async %p1, %two : memref<2xi32, strided<[1], offset: 2>>, i32
  %t2 = gpu.memset async %p2, %three : memref<2xi32, strided<[1], offset: 4>>, i32

  // CUDA-NEXT: cuEventCreate(Flags=2) -> CUDA_SUCCESS [*phEvent=[[E1:event#[0-9]+]]]
  // CUDA-NEXT: cuEventRecord(hEvent=[[E1]], hStream=[[S1]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamWaitEvent(hStream=[[S0]], hEvent=[[E1]], Flags=0) -> CUDA_SUCCESS
  // CUDA-NEXT: cuEventDestroy_v2(hEvent=[[E1]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamQuery(hStream=[[S1]]) -> {{CUDA_SUCCESS|CUDA_ERROR_NOT_READY}}
  // CUDA:      cuEventCreate(Flags=2) -> CUDA_SUCCESS [*phEvent=[[E2:event#[0-9]+]]]
  // CUDA-NEXT: cuEventRecord(hEvent=[[E2]], hStream=[[S2]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamWaitEvent(hStream=[[S0]], hEvent=[[E2]], Flags=0) -> CUDA_SUCCESS
  // CUDA-NEXT: cuEventDestroy_v2(hEvent=[[E2]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamQuery(hStream=[[S2]]) -> {{CUDA_SUCCESS|CUDA_ERROR_NOT_READY}}
  // HIP-NEXT:  hipEventCreateWithFlags(flags=2) -> hipSuccess [*event=[[E1:event#[0-9]+]]]
  // HIP-NEXT:  hipEventRecord(event=[[E1]], stream=[[S1]]) -> hipSuccess
  // HIP-NEXT:  hipStreamWaitEvent(stream=[[S0]], event=[[E1]], flags=0) -> hipSuccess
  // HIP-NEXT:  hipEventDestroy(event=[[E1]]) -> hipSuccess
  // HIP-NEXT:  hipStreamQuery(stream=[[S1]]) -> {{hipSuccess|hipErrorNotReady}}
  // HIP:       hipEventCreateWithFlags(flags=2) -> hipSuccess [*event=[[E2:event#[0-9]+]]]
  // HIP-NEXT:  hipEventRecord(event=[[E2]], stream=[[S2]]) -> hipSuccess
  // HIP-NEXT:  hipStreamWaitEvent(stream=[[S0]], event=[[E2]], flags=0) -> hipSuccess
  // HIP-NEXT:  hipEventDestroy(event=[[E2]]) -> hipSuccess
  // HIP-NEXT:  hipStreamQuery(stream=[[S2]]) -> {{hipSuccess|hipErrorNotReady}}
  %joined = gpu.wait async [%t0, %t1, %t2]

  // CUDA: cuMemcpyAsync(dst=host, src={{.*}}, ByteCount=24, hStream=[[S0]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuStreamSynchronize(hStream=[[S0]]) -> CUDA_SUCCESS
  // HIP:  hipMemcpyAsync(dst=host, src={{.*}}, sizeBytes=24, kind=hipMemcpyDefault, stream=[[S0]]) -> hipSuccess
  // HIP-NEXT: hipStreamSynchronize(stream=[[S0]]) -> hipSuccess
  %host = memref.alloc() : memref<6xi32>
  %done = gpu.memcpy async [%joined] %host, %dev : memref<6xi32>, memref<6xi32>
  gpu.wait [%done]

  %u = memref.cast %host : memref<6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %dev : memref<6xi32>
  return
}
