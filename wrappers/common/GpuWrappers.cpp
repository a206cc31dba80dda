//===- GpuWrappers.cpp - The mgpu ABI on the GPU backends -----------------===//
//
// The extern "C" functions of MgpuAbi.def and DeviceKernelAbi.def and the
// Backend.h hooks of the GPU backends (CUDA, HIP), each a call into the
// process-wide GpuRuntime over the backend's driver (getGpuDriver) that
// turns a failed Status into a fatal error at the op's location:
//
//   file.mlir:12:5: error: gpu.memcpy: CUDA_ERROR_INVALID_VALUE: invalid
//   argument
//
// The upstream functions carry no location, so their errors name just the
// op they come from.
//
//===----------------------------------------------------------------------===//

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/common/GpuRuntime.h"
#include "wrappers/common/RuntimeError.h"

#include <array>
#include <cstring>
#include <vector>

using namespace gpu_runner;

namespace {

/// Never destroyed: at exit, other threads may still call in, and static
/// destructors run in no useful order. finalizeBackend does the orderly
/// shutdown.
GpuRuntime &runtime() {
  static GpuRuntime *instance = new GpuRuntime(getGpuDriver());
  return *instance;
}

void check(const Status &status, const char *loc) {
  reportIfError(status, loc);
}

/// A launch, with thread block clusters when `cluster` is not null.
void launchKernel(void *function, const std::array<int64_t, 3> *cluster,
                  const std::array<int64_t, 3> &grid,
                  const std::array<int64_t, 3> &block,
                  int32_t sharedMemoryBytes, void *stream, void **params,
                  const char *loc) {
  GpuRuntime::Launch launch;
  launch.useCluster = cluster != nullptr;
  for (int i = 0; i < 3; ++i) {
    launch.cluster[i] = cluster ? (*cluster)[i] : 1;
    launch.grid[i] = grid[i];
    launch.block[i] = block[i];
  }
  launch.sharedMemoryBytes = sharedMemoryBytes;
  check(runtime().launch(function, launch, stream, params, loc), loc);
}

} // namespace

namespace gpu_runner {

std::vector<RuntimeSymbol> getRuntimeSymbols() {
  return {
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/MgpuAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/DeviceKernelAbi.def"
  };
}

bool describeDevices(std::string &text, std::string &error) {
  Status status = runtime().describeDevices(text);
  if (!status.ok())
    error = status.message();
  return status.ok();
}

bool queryDeviceChip(int device, std::string &chip, std::string &error) {
  Status status = runtime().getDeviceChip(device, chip);
  if (!status.ok())
    error = status.message();
  return status.ok();
}

bool initializeBackend(const BackendOptions &options, std::string &error) {
  Status status = runtime().initialize(options.device);
  if (!status.ok())
    error = status.message();
  return status.ok();
}

void synchronizeBackend() { check(runtime().synchronize(), nullptr); }

void finalizeBackend() {
  std::vector<GpuRuntime::Warning> leaks;
  check(runtime().finalize(leaks), nullptr);
  for (const GpuRuntime::Warning &leak : leaks)
    reportWarning(leak.loc.c_str(), leak.message);
}

} // namespace gpu_runner

extern "C" {

//===----------------------------------------------------------------------===//
// Upstream functions.
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *data, size_t sizeBytes) {
  return mgpuModuleLoadAt(data, sizeBytes, kDeviceObjectBinary, "gpu.binary");
}

void *mgpuModuleLoadJIT(void *data, int32_t optLevel) {
  void *module = nullptr;
  const char *ptx = static_cast<const char *>(data);
  check(runtime().loadModule(data, ptx ? std::strlen(ptx) + 1 : 0,
                             kDeviceObjectAssembly, optLevel, module),
        "gpu.binary");
  return module;
}

void mgpuModuleUnload(void *module) {
  mgpuModuleUnloadAt(module, "gpu.binary");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  return mgpuModuleGetFunctionAt(module, name, "gpu.launch_func");
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **, size_t paramCount) {
  mgpuLaunchKernelAt(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                     sharedMemoryBytes, stream, params,
                     static_cast<int64_t>(paramCount), "gpu.launch_func");
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

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  check(runtime().hostRegister(ptr, sizeBytes), "gpu.host_register");
}

void mgpuMemHostUnregister(void *ptr) {
  check(runtime().hostUnregister(ptr), "gpu.host_unregister");
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

void *mgpuStreamRecordEventAt(void *stream, const char *loc) {
  void *event = nullptr;
  check(runtime().recordEventOnStream(stream, event), loc);
  return event;
}

void *mgpuStreamFromTokenAt(void *token, const char *loc) {
  void *stream = nullptr;
  check(runtime().streamFromToken(token, stream), loc);
  return stream;
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
  check(runtime().memcpy(dst, src, sizeBytes, stream), loc);
}

void mgpuMemcpyStridedAt(int64_t rank, void *dstDescriptor, void *srcDescriptor,
                         int64_t elementSizeBytes, void *stream,
                         const char *loc) {
  check(runtime().memcpyStrided(rank, dstDescriptor, srcDescriptor,
                                elementSizeBytes, stream),
        loc);
}

void mgpuMemset8At(void *dst, uint8_t value, uint64_t count, void *stream,
                   const char *loc) {
  check(runtime().memset(dst, value, 1, count, stream), loc);
}

void mgpuMemset16At(void *dst, uint16_t value, uint64_t count, void *stream,
                    const char *loc) {
  check(runtime().memset(dst, value, 2, count, stream), loc);
}

void mgpuMemset32At(void *dst, uint32_t value, uint64_t count, void *stream,
                    const char *loc) {
  check(runtime().memset(dst, value, 4, count, stream), loc);
}

void mgpuMemset64At(void *dst, uint64_t value, uint64_t count, void *stream,
                    const char *loc) {
  check(runtime().memset(dst, value, 8, count, stream), loc);
}

void mgpuMemsetStridedAt(int64_t rank, void *descriptor,
                         int64_t elementSizeBytes, uint64_t value, void *stream,
                         const char *loc) {
  check(runtime().memsetStrided(rank, descriptor, elementSizeBytes, value,
                                stream),
        loc);
}

void mgpuMemHostRegisterMemRefAt(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes, const char *loc) {
  check(runtime().hostRegisterMemRef(rank, descriptor, elementSizeBytes), loc);
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
// Kernels compiled for the GPU (DeviceKernelAbi.def).
//===----------------------------------------------------------------------===//

void *mgpuModuleLoadAt(const void *data, uint64_t sizeBytes, int32_t format,
                       const char *loc) {
  void *module = nullptr;
  check(runtime().loadModule(data, sizeBytes, format, /*optLevel=*/4, module),
        loc);
  return module;
}

void mgpuModuleUnloadAt(void *module, const char *loc) {
  check(runtime().unloadModule(module), loc);
}

void *mgpuModuleGetFunctionAt(void *module, const char *name, const char *loc) {
  void *function = nullptr;
  check(runtime().getFunction(module, name, function), loc);
  return function;
}

void mgpuLaunchKernelAt(void *function, int64_t gridX, int64_t gridY,
                        int64_t gridZ, int64_t blockX, int64_t blockY,
                        int64_t blockZ, int32_t sharedMemoryBytes, void *stream,
                        void **params, int64_t, const char *loc) {
  launchKernel(function, nullptr, {gridX, gridY, gridZ},
               {blockX, blockY, blockZ}, sharedMemoryBytes, stream, params,
               loc);
}

void mgpuLaunchClusterKernelAt(void *function, int64_t clusterX,
                               int64_t clusterY, int64_t clusterZ,
                               int64_t gridX, int64_t gridY, int64_t gridZ,
                               int64_t blockX, int64_t blockY, int64_t blockZ,
                               int32_t sharedMemoryBytes, void *stream,
                               void **params, int64_t, const char *loc) {
  const std::array<int64_t, 3> cluster = {clusterX, clusterY, clusterZ};
  launchKernel(function, &cluster, {gridX, gridY, gridZ},
               {blockX, blockY, blockZ}, sharedMemoryBytes, stream, params,
               loc);
}

//===----------------------------------------------------------------------===//
// Timers. Programs call these directly, so errors name the function.
//===----------------------------------------------------------------------===//

void *mgpuTimerCreate(void) {
  void *timer = nullptr;
  check(runtime().createTimer(timer), "mgpuTimerCreate");
  return timer;
}

void mgpuTimerDestroy(void *timer) {
  check(runtime().destroyTimer(timer), "mgpuTimerDestroy");
}

void mgpuTimerStart(void *timer, void *stream) {
  check(runtime().startTimer(timer, stream), "mgpuTimerStart");
}

void mgpuTimerStop(void *timer, void *stream) {
  check(runtime().stopTimer(timer, stream), "mgpuTimerStop");
}

int64_t mgpuTimerElapsedNs(void *timer) {
  int64_t nanoseconds = 0;
  check(runtime().getTimerElapsedNs(timer, nanoseconds), "mgpuTimerElapsedNs");
  return nanoseconds;
}

} // extern "C"
