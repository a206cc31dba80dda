//===- MgpuWrappers.cpp - The mgpu ABI on the host backend ----------------===//
//
// The extern "C" functions of MgpuAbi.def and the Backend.h hooks, each a
// call into the process-wide HostRuntime that turns a failed Status into a
// fatal error at the op's location. The upstream functions carry no
// location, so their errors name just the op they come from.
//
//===----------------------------------------------------------------------===//

#include "wrappers/Backend.h"
#include "wrappers/HostKernelAbi.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/Runtime.h"

#include <vector>

using namespace gpu_runner;

namespace {

/// Never destroyed: at exit, other threads (the program's, or workers the
/// program never let finish) may still call in, and static destructors run
/// in no useful order. finalizeBackend does the orderly shutdown.
HostRuntime &runtime() {
  static HostRuntime *instance = new HostRuntime();
  return *instance;
}

void check(const Status &status, const char *loc) {
  reportIfError(status, loc);
}

/// Kernels are not supported yet; the error names gpu.launch_func, the op
/// every module and function load exists for.
[[noreturn]] void kernelsNotSupported() {
  reportFatalError("gpu.launch_func",
                   HostRuntime::kernelsNotSupported().message());
}

} // namespace

namespace gpu_runner {

const char *backendName() { return "host"; }

std::vector<RuntimeSymbol> getRuntimeSymbols() {
  return {
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/MgpuAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/HostKernelAbi.def"
  };
}

bool initializeBackend(const BackendOptions &options, std::string &error) {
  Status status = runtime().setDefaultDevice(options.device);
  if (!status.ok()) {
    error = status.message();
    return false;
  }
  return true;
}

void finalizeBackend() {
  std::vector<HostRuntime::Warning> leaks;
  check(runtime().finalize(leaks), nullptr);
  for (const HostRuntime::Warning &leak : leaks)
    reportWarning(leak.loc.c_str(), leak.message);
}

} // namespace gpu_runner

extern "C" {

//===----------------------------------------------------------------------===//
// Upstream functions.
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *, size_t) { kernelsNotSupported(); }

void *mgpuModuleLoadJIT(void *, int32_t) { kernelsNotSupported(); }

void mgpuModuleUnload(void *) { kernelsNotSupported(); }

void *mgpuModuleGetFunction(void *, const char *) { kernelsNotSupported(); }

void mgpuLaunchKernel(void *, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                      intptr_t, int32_t, void *, void **, void **, size_t) {
  kernelsNotSupported();
}

void *mgpuStreamCreate(void) { return mgpuStreamCreateAt("gpu.wait"); }

void mgpuStreamDestroy(void *stream) {
  mgpuStreamDestroyAt(stream, "gpu.wait");
}

void mgpuStreamSynchronize(void *stream) {
  mgpuStreamSynchronizeAt(stream, "gpu.wait");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  check(runtime().streamWaitEvent(stream, event), "gpu.wait");
}

void *mgpuEventCreate(void) {
  void *event = nullptr;
  check(runtime().createEvent(event), "gpu.wait");
  return event;
}

void mgpuEventDestroy(void *event) {
  check(runtime().destroyEvent(event), "gpu.wait");
}

void mgpuEventSynchronize(void *event) {
  check(runtime().synchronizeEvent(event), "gpu.wait");
}

void mgpuEventRecord(void *event, void *stream) {
  check(runtime().recordEvent(event, stream), "gpu.wait");
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

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  check(runtime().hostRegister(ptr, sizeBytes, "gpu.host_register"),
        "gpu.host_register");
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  mgpuMemHostRegisterMemRefAt(rank, descriptor, elementSizeBytes,
                              "gpu.host_register");
}

void mgpuMemHostUnregister(void *ptr) {
  check(runtime().hostUnregister(ptr), "gpu.host_unregister");
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  mgpuMemHostUnregisterMemRefAt(rank, descriptor, elementSizeBytes,
                                "gpu.host_unregister");
}

void mgpuSetDefaultDevice(int32_t device) {
  check(runtime().setDefaultDevice(device), "gpu.set_default_device");
}

//===----------------------------------------------------------------------===//
// gpu-runner's own functions.
//===----------------------------------------------------------------------===//

void *mgpuStreamCreateAt(const char *loc) {
  void *stream = nullptr;
  check(runtime().createStream(stream), loc);
  return stream;
}

void mgpuStreamDestroyAt(void *stream, const char *loc) {
  check(runtime().destroyStream(stream), loc);
}

void mgpuStreamSynchronizeAt(void *stream, const char *loc) {
  check(runtime().synchronizeStream(stream), loc);
}

void mgpuStreamJoinAt(void *stream, void *dependency, const char *loc) {
  check(runtime().joinStream(stream, dependency), loc);
}

void *mgpuMemAllocAt(uint64_t sizeBytes, void *stream, bool isHostShared,
                     const char *loc) {
  void *result = nullptr;
  check(runtime().allocate(sizeBytes, stream, isHostShared, loc, result), loc);
  return result;
}

void mgpuMemFreeAt(void *ptr, void *stream, const char *loc) {
  check(runtime().free(ptr, stream, loc), loc);
}

void mgpuMemcpyAt(void *dst, void *src, uint64_t sizeBytes, void *stream,
                  const char *loc) {
  check(runtime().memcpy(dst, src, sizeBytes, stream, loc), loc);
}

void mgpuMemcpyStridedAt(int64_t rank, void *dstDescriptor, void *srcDescriptor,
                         int64_t elementSizeBytes, void *stream,
                         const char *loc) {
  check(runtime().memcpyStrided(rank, dstDescriptor, srcDescriptor,
                                elementSizeBytes, stream, loc),
        loc);
}

void mgpuMemset8At(void *dst, uint8_t value, uint64_t count, void *stream,
                   const char *loc) {
  check(runtime().memset(dst, value, 1, count, stream, loc), loc);
}

void mgpuMemset16At(void *dst, uint16_t value, uint64_t count, void *stream,
                    const char *loc) {
  check(runtime().memset(dst, value, 2, count, stream, loc), loc);
}

void mgpuMemset32At(void *dst, uint32_t value, uint64_t count, void *stream,
                    const char *loc) {
  check(runtime().memset(dst, value, 4, count, stream, loc), loc);
}

void mgpuMemset64At(void *dst, uint64_t value, uint64_t count, void *stream,
                    const char *loc) {
  check(runtime().memset(dst, value, 8, count, stream, loc), loc);
}

void mgpuMemsetStridedAt(int64_t rank, void *descriptor,
                         int64_t elementSizeBytes, uint64_t value, void *stream,
                         const char *loc) {
  check(runtime().memsetStrided(rank, descriptor, elementSizeBytes, value,
                                stream, loc),
        loc);
}

void mgpuMemHostRegisterMemRefAt(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes, const char *loc) {
  check(runtime().hostRegisterMemRef(rank, descriptor, elementSizeBytes, loc),
        loc);
}

void mgpuMemHostUnregisterMemRefAt(int64_t rank, void *descriptor,
                                   int64_t elementSizeBytes, const char *loc) {
  check(runtime().hostUnregisterMemRef(rank, descriptor, elementSizeBytes),
        loc);
}

void mgpuSetDefaultDeviceAt(int32_t device, const char *loc) {
  check(runtime().setDefaultDevice(device), loc);
}

//===----------------------------------------------------------------------===//
// Kernels compiled for the host (HostKernelAbi.def).
//===----------------------------------------------------------------------===//

void mgpuLaunchHostKernelAt(void *, int64_t, int64_t, int64_t, int64_t,
                            int64_t, int64_t, int64_t, int64_t, int32_t,
                            void *, int64_t, void *, const char *,
                            const char *) {
  kernelsNotSupported();
}

void mgpuHostBarrierAt(void *, const char *) { kernelsNotSupported(); }

uint64_t mgpuHostShuffleAt(void *, uint64_t, int32_t, int32_t, const char *) {
  kernelsNotSupported();
}

} // extern "C"
