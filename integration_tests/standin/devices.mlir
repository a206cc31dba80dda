// Two devices: --list-devices lists both, --device=1 starts on the second
// (its primary context retained and made current), gpu.set_default_device
// switches to the first, and a copy between the two devices' memory works.
// A device the machine does not have is an error.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %gpu-runner-cuda-standin --list-devices | FileCheck %s --check-prefix=LIST-CUDA
// RUN: %gpu-runner-hip-standin --list-devices | FileCheck %s --check-prefix=LIST-HIP
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.cuda %gpu-runner-cuda-standin --device=1 %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=CUDA < %t.cuda
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --device=1 %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=HIP < %t.hip
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --device=2 %s 2>&1 | FileCheck %s --check-prefix=MISSING -DVENDOR=CUDA
// RUN: %expect-exit-1 %gpu-runner-hip-standin --device=2 %s 2>&1 | FileCheck %s --check-prefix=MISSING -DVENDOR=HIP

// LIST-CUDA:      0: gpu-runner CUDA driver stand-in (sm_90, 16.0 GiB)
// LIST-CUDA-NEXT: 1: gpu-runner CUDA driver stand-in (sm_90, 16.0 GiB)
// LIST-HIP:       0: gpu-runner HIP runtime stand-in (gfx90a, 16.0 GiB)
// LIST-HIP-NEXT:  1: gpu-runner HIP runtime stand-in (gfx90a, 16.0 GiB)

// MISSING: error: there is no [[VENDOR]] device 2: this machine has 2 devices, 0 to 1

// OUT: [5,  5,  5,  5]

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  // CUDA:      cuDevicePrimaryCtxRetain(dev=1) -> CUDA_SUCCESS [*pctx=context(device 1)]
  // CUDA:      cuCtxSetCurrent(ctx=context(device 1)) -> CUDA_SUCCESS
  // CUDA-NEXT: cuMemAlloc_v2(bytesize=16) -> CUDA_SUCCESS [*dptr=[[ON1:alloc#[0-9]+]]+0]
  // HIP:       hipDeviceGetAttribute(attr=74, deviceId=1)
  // HIP-NEXT:  hipSetDevice(deviceId=1) -> hipSuccess
  // HIP-NEXT:  hipMalloc(size=16) -> hipSuccess [*ptr=[[ON1:alloc#[0-9]+]]+0]
  %five = arith.constant 5 : i32
  %a = gpu.alloc () : memref<4xi32>
  gpu.memset %a, %five : memref<4xi32>, i32

  // CUDA:      cuDevicePrimaryCtxRetain(dev=0) -> CUDA_SUCCESS [*pctx=context(device 0)]
  // CUDA:      cuCtxSetCurrent(ctx=context(device 0)) -> CUDA_SUCCESS
  // CUDA-NEXT: cuMemAlloc_v2(bytesize=16) -> CUDA_SUCCESS [*dptr=[[ON0:alloc#[0-9]+]]+0]
  // CUDA:      cuMemcpyAsync(dst=[[ON0]]+0, src=[[ON1]]+0, ByteCount=16, hStream=legacy) -> CUDA_SUCCESS
  // HIP:       hipDeviceGetAttribute(attr=74, deviceId=0)
  // HIP-NEXT:  hipSetDevice(deviceId=0) -> hipSuccess
  // HIP-NEXT:  hipMalloc(size=16) -> hipSuccess [*ptr=[[ON0:alloc#[0-9]+]]+0]
  // HIP:       hipMemcpyAsync(dst=[[ON0]]+0, src=[[ON1]]+0, sizeBytes=16, kind=hipMemcpyDefault, stream=null) -> hipSuccess
  %zero = arith.constant 0 : i32
  gpu.set_default_device %zero
  %b = gpu.alloc () : memref<4xi32>
  gpu.memcpy %b, %a : memref<4xi32>, memref<4xi32>

  %host = memref.alloc() : memref<4xi32>
  gpu.memcpy %host, %b : memref<4xi32>, memref<4xi32>
  %u = memref.cast %host : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %a : memref<4xi32>
  gpu.dealloc %b : memref<4xi32>
  return
}
