// The runtime's timers record events with timing (cuEventCreate without
// CU_EVENT_DISABLE_TIMING) on the token's stream, wait for both, and read
// the time between them in milliseconds.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// OUT: at least 10 ms: 1

func.func private @mgpuTimerCreate() -> !llvm.ptr
func.func private @mgpuTimerDestroy(!llvm.ptr)
func.func private @mgpuTimerStart(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerStop(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64
func.func private @usleep(i32) -> i32

func.func @main() {
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  // CUDA:      cuStreamCreate(Flags=0) -> CUDA_SUCCESS [*phStream=[[S:stream#[0-9]+]]]
  // CUDA-NEXT: cuEventCreate(Flags=0) -> CUDA_SUCCESS [*phEvent=[[START:event#[0-9]+]]]
  // CUDA-NEXT: cuEventRecord(hEvent=[[START]], hStream=[[S]]) -> CUDA_SUCCESS
  // HIP:       hipStreamCreateWithFlags(flags=0) -> hipSuccess [*stream=[[S:stream#[0-9]+]]]
  // HIP-NEXT:  hipEventCreateWithFlags(flags=0) -> hipSuccess [*event=[[START:event#[0-9]+]]]
  // HIP-NEXT:  hipEventRecord(event=[[START]], stream=[[S]]) -> hipSuccess
  %t0 = gpu.wait async
  func.call @mgpuTimerStart(%timer, %t0) : (!llvm.ptr, !gpu.async.token) -> ()
  %us = arith.constant 10000 : i32
  func.call @usleep(%us) : (i32) -> i32
  // CUDA-NEXT: cuEventCreate(Flags=0) -> CUDA_SUCCESS [*phEvent=[[STOP:event#[0-9]+]]]
  // CUDA-NEXT: cuEventRecord(hEvent=[[STOP]], hStream=[[S]]) -> CUDA_SUCCESS
  // HIP-NEXT:  hipEventCreateWithFlags(flags=0) -> hipSuccess [*event=[[STOP:event#[0-9]+]]]
  // HIP-NEXT:  hipEventRecord(event=[[STOP]], stream=[[S]]) -> hipSuccess
  func.call @mgpuTimerStop(%timer, %t0) : (!llvm.ptr, !gpu.async.token) -> ()
  // CUDA-NEXT: cuEventSynchronize(hEvent=[[STOP]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuEventSynchronize(hEvent=[[START]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuEventElapsedTime_v2(hStart=[[START]], hEnd=[[STOP]]) -> CUDA_SUCCESS
  // HIP-NEXT:  hipEventSynchronize(event=[[STOP]]) -> hipSuccess
  // HIP-NEXT:  hipEventSynchronize(event=[[START]]) -> hipSuccess
  // HIP-NEXT:  hipEventElapsedTime(start=[[START]], stop=[[STOP]]) -> hipSuccess
  %ns = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  gpu.wait [%t0]
  // CUDA:      cuEventDestroy_v2(hEvent=[[START]]) -> CUDA_SUCCESS
  // CUDA-NEXT: cuEventDestroy_v2(hEvent=[[STOP]]) -> CUDA_SUCCESS
  // HIP:       hipEventDestroy(event=[[START]]) -> hipSuccess
  // HIP-NEXT:  hipEventDestroy(event=[[STOP]]) -> hipSuccess
  func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()
  %min = arith.constant 10000000 : i64
  %long = arith.cmpi sge, %ns, %min : i64
  vector.print str "at least 10 ms: "
  vector.print %long : i1
  return
}
