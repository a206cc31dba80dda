//===- UpstreamForwarders.cpp - Upstream mgpu functions without a location ===//
//
// The upstream functions of MgpuAbi.def that are gpu-runner's own `At`
// functions without a source location: every backend's wrapper library
// compiles these, so their errors name the op they come from as the `At`
// function reports it. The upstream functions that differ between backends
// (events, module loads, launches) are in each backend's wrappers.
//
//===----------------------------------------------------------------------===//

#include "wrappers/MgpuAbi.h"

extern "C" {

void *mgpuStreamCreate(void) { return mgpuStreamCreateAt("gpu.wait"); }

void mgpuStreamDestroy(void *stream) {
  mgpuStreamDestroyAt(stream, "gpu.wait");
}

void mgpuStreamSynchronize(void *stream) {
  mgpuStreamSynchronizeAt(stream, "gpu.wait");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  return mgpuMemAllocAt(sizeBytes, stream, isHostShared, "gpu.alloc");
}

void mgpuMemFree(void *ptr, void *stream) {
  mgpuMemFreeAt(ptr, stream, "gpu.dealloc");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  mgpuMemcpyAt(dst, src, sizeBytes, stream, "gpu.memcpy");
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  mgpuMemset16At(dst, value, count, stream, "gpu.memset");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  mgpuMemset32At(dst, value, count, stream, "gpu.memset");
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  mgpuMemHostRegisterMemRefAt(rank, descriptor, elementSizeBytes,
                              "gpu.host_register");
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  mgpuMemHostUnregisterMemRefAt(rank, descriptor, elementSizeBytes,
                                "gpu.host_unregister");
}

void mgpuSetDefaultDevice(int32_t device) {
  mgpuSetDefaultDeviceAt(device, "gpu.set_default_device");
}

} // extern "C"
