// A token stays a dependency after a gpu.wait or a join released its stream
// (run/tokens-after-wait.mlir). On a GPU backend (wrappers/cuda/README.md):
// reuse: a stream released idle goes back to the pool and serves the next
//   new token; the old token's work is done, so an op that depends on it
//   gets a stream of its own and waits for nothing: not for the new work on
//   its old stream, which it must not take for its own.
// draining: a stream released busy (the stand-in's first stream query
//   answers "not ready") is neither destroyed nor reused; an op that then
//   depends on its token gets a stream of its own that waits for an event
//   recorded on it, a wait on the token synchronizes it, and it is destroyed
//   at exit.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.reuse.cuda %gpu-runner-cuda-standin %s -e reuse | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REUSE-CUDA < %t.reuse.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.reuse.hip %gpu-runner-hip-standin %s -e reuse | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REUSE-HIP < %t.reuse.hip
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.draining.cuda GPU_RUNNER_STANDIN_FAULTS=cuStreamQuery:1:CUDA_ERROR_NOT_READY %gpu-runner-cuda-standin %s -e draining | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=DRAINING-CUDA < %t.draining.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.draining.hip GPU_RUNNER_STANDIN_FAULTS=hipStreamQuery:1:hipErrorNotReady %gpu-runner-hip-standin %s -e draining | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=DRAINING-HIP < %t.draining.hip

// OUT: [3,  3,  3,  3]

func.func private @printMemrefI32(memref<*xi32>)

func.func @reuse() {
  %three = arith.constant 3 : i32
  %four = arith.constant 4 : i32
  %dev = gpu.alloc () : memref<4xi32>
  %other = gpu.alloc () : memref<4xi32>
  %host = memref.alloc() : memref<4xi32>
  // REUSE-CUDA:      cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S:stream#[0-9]+]]]
  // REUSE-CUDA-NEXT: cuMemsetD32Async(dstDevice=alloc#1+0, ui=0x3, N=4, hStream=[[S]])
  // REUSE-CUDA-NEXT: cuStreamSynchronize(hStream=[[S]])
  // REUSE-CUDA-NEXT: cuStreamQuery(hStream=[[S]]) -> CUDA_SUCCESS
  // REUSE-HIP:       hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S:stream#[0-9]+]]]
  // REUSE-HIP-NEXT:  hipMemsetD32Async(dst=alloc#1+0, value=0x3, count=4, stream=[[S]])
  // REUSE-HIP-NEXT:  hipStreamSynchronize(stream=[[S]])
  // REUSE-HIP-NEXT:  hipStreamQuery(stream=[[S]]) -> hipSuccess
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %dev, %three : memref<4xi32>, i32
  gpu.wait [%t1]
  // The new token gets the idle stream back.
  // REUSE-CUDA-NEXT: cuMemsetD32Async(dstDevice=alloc#2+0, ui=0x4, N=4, hStream=[[S]])
  // REUSE-HIP-NEXT:  hipMemsetD32Async(dst=alloc#2+0, value=0x4, count=4, stream=[[S]])
  %n0 = gpu.wait async
  %n1 = gpu.memset async [%n0] %other, %four : memref<4xi32>, i32
  // The copy that depends on the old token gets another one and waits for
  // nothing; waiting again for the old token calls no driver function.
  // REUSE-CUDA-NEXT: cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S2:stream#[0-9]+]]]
  // REUSE-CUDA-NEXT: cuMemcpyAsync(dst=host, src=alloc#1+0, ByteCount=16, hStream=[[S2]])
  // REUSE-CUDA-NEXT: cuStreamSynchronize(hStream=[[S2]])
  // REUSE-CUDA-NEXT: cuStreamQuery(hStream=[[S2]])
  // REUSE-CUDA-NEXT: cuStreamSynchronize(hStream=[[S]])
  // REUSE-HIP-NEXT:  hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S2:stream#[0-9]+]]]
  // REUSE-HIP-NEXT:  hipMemcpyAsync(dst=host, src=alloc#1+0, sizeBytes=16, kind=hipMemcpyDefault, stream=[[S2]])
  // REUSE-HIP-NEXT:  hipStreamSynchronize(stream=[[S2]])
  // REUSE-HIP-NEXT:  hipStreamQuery(stream=[[S2]])
  // REUSE-HIP-NEXT:  hipStreamSynchronize(stream=[[S]])
  %t2 = gpu.memcpy async [%t1] %host, %dev : memref<4xi32>, memref<4xi32>
  gpu.wait [%t2]
  gpu.wait [%t1]
  gpu.wait [%n1]
  %u = memref.cast %host : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %dev : memref<4xi32>
  gpu.dealloc %other : memref<4xi32>
  return
}

func.func @draining() {
  %three = arith.constant 3 : i32
  %dev = gpu.alloc () : memref<4xi32>
  %host = memref.alloc() : memref<4xi32>
  // DRAINING-CUDA:      cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[A:stream#[0-9]+]]]
  // DRAINING-CUDA-NEXT: cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[B:stream#[0-9]+]]]
  // DRAINING-CUDA-NEXT: cuMemsetD32Async(dstDevice=alloc#1+0, ui=0x3, N=4, hStream=[[B]])
  // DRAINING-CUDA:      cuStreamWaitEvent(hStream=[[A]]
  // DRAINING-CUDA:      cuStreamQuery(hStream=[[B]]) -> CUDA_ERROR_NOT_READY (injected)
  // DRAINING-HIP:       hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[A:stream#[0-9]+]]]
  // DRAINING-HIP-NEXT:  hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[B:stream#[0-9]+]]]
  // DRAINING-HIP-NEXT:  hipMemsetD32Async(dst=alloc#1+0, value=0x3, count=4, stream=[[B]])
  // DRAINING-HIP:       hipStreamWaitEvent(stream=[[A]]
  // DRAINING-HIP:       hipStreamQuery(stream=[[B]]) -> hipErrorNotReady (injected)
  %a = gpu.wait async
  %b = gpu.memset async %dev, %three : memref<4xi32>, i32
  %joined = gpu.wait async [%a, %b]
  // DRAINING-CUDA-NEXT: cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[C:stream#[0-9]+]]]
  // DRAINING-CUDA-NEXT: cuEventCreate(Flags=2) -> CUDA_SUCCESS [*phEvent=[[E:event#[0-9]+]]]
  // DRAINING-CUDA-NEXT: cuEventRecord(hEvent=[[E]], hStream=[[B]]) -> CUDA_SUCCESS
  // DRAINING-CUDA-NEXT: cuStreamWaitEvent(hStream=[[C]], hEvent=[[E]], Flags=0) -> CUDA_SUCCESS
  // DRAINING-CUDA-NEXT: cuEventDestroy_v2(hEvent=[[E]]) -> CUDA_SUCCESS
  // DRAINING-CUDA-NEXT: cuMemcpyAsync(dst=host, src=alloc#1+0, ByteCount=16, hStream=[[C]])
  // DRAINING-HIP-NEXT:  hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[C:stream#[0-9]+]]]
  // DRAINING-HIP-NEXT:  hipEventCreateWithFlags(flags=2) -> hipSuccess [*event=[[E:event#[0-9]+]]]
  // DRAINING-HIP-NEXT:  hipEventRecord(event=[[E]], stream=[[B]]) -> hipSuccess
  // DRAINING-HIP-NEXT:  hipStreamWaitEvent(stream=[[C]], event=[[E]], flags=0) -> hipSuccess
  // DRAINING-HIP-NEXT:  hipEventDestroy(event=[[E]]) -> hipSuccess
  // DRAINING-HIP-NEXT:  hipMemcpyAsync(dst=host, src=alloc#1+0, sizeBytes=16, kind=hipMemcpyDefault, stream=[[C]])
  %t = gpu.memcpy async [%b] %host, %dev : memref<4xi32>, memref<4xi32>
  gpu.wait [%t, %joined]
  // A wait on %b synchronizes its stream, which was never destroyed or
  // handed out again; the exit destroys it.
  // DRAINING-CUDA:      cuStreamSynchronize(hStream=[[B]]) -> CUDA_SUCCESS
  // DRAINING-CUDA-NOT:  hStream=[[B]]
  // DRAINING-CUDA:      cuStreamDestroy_v2(hStream=[[B]]) -> CUDA_SUCCESS
  // DRAINING-HIP:       hipStreamSynchronize(stream=[[B]]) -> hipSuccess
  // DRAINING-HIP-NOT:   stream=[[B]]
  // DRAINING-HIP:       hipStreamDestroy(stream=[[B]]) -> hipSuccess
  gpu.wait [%b]
  %u = memref.cast %host : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %dev : memref<4xi32>
  return
}
