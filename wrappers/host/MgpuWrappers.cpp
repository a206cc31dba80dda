//===- MgpuWrappers.cpp - The mgpu ABI on the host backend ----------------===//
//
// The extern "C" functions of MgpuAbi.def and HostKernelAbi.def and the
// Backend.h hooks, each a call into the process-wide HostRuntime that turns
// a failed Status into a fatal error at the op's location. The upstream
// functions carry no location, so their errors name just the op they come
// from. Barriers and shuffles go straight to the calling fiber's block.
//
//===----------------------------------------------------------------------===//

#include "wrappers/Backend.h"
#include "wrappers/HostKernelAbi.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/FaultHandler.h"
#include "wrappers/host/Fibers.h"
#include "wrappers/host/Runtime.h"

#include <algorithm>
#include <thread>
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

/// The upstream module and kernel functions, which load GPU binaries; the
/// error names gpu.launch_func, the op every module and function load
/// exists for.
[[noreturn]] void gpuBinariesNotSupported(const char *function) {
  reportFatalError("gpu.launch_func",
                   HostRuntime::gpuBinariesNotSupported(function).message());
}

/// The context of a GPU thread that runs on a fiber; anything else reaching
/// a barrier or shuffle is a bug of the lowering.
HostKernelContext *fiberContext(void *context, const char *loc,
                                const char *op) {
  auto *threadContext = static_cast<HostKernelContext *>(context);
  if (!threadContext || !threadContext->runtime)
    reportFatalError(loc && *loc ? loc : op,
                     "a kernel launched without fibers reached this op: a "
                     "bug of the host kernel lowering, which launches every "
                     "kernel with barriers or shuffles with "
                     "kHostKernelUsesFibers");
  return threadContext;
}

/// The JIT'd program's abort(), which a failed cf.assert calls once it has
/// printed its message: an error with status 1 that says where it happened,
/// instead of a crash.
[[noreturn]] void programAbort() {
  const RunningKernel &kernel = runningKernel();
  const char *cause = "a failed cf.assert (its message is printed above) or "
                      "a call of abort()";
  if (!kernel.name)
    reportFatalError(nullptr, std::string("the program aborted: ") + cause);
  auto ids = [](const int64_t *id) {
    return "(" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " +
           std::to_string(id[2]) + ")";
  };
  std::string where = "block " + ids(kernel.blockId);
  if (kernel.threadId)
    where += ", thread " + ids(kernel.threadId);
  reportFatalError(kernel.launchLoc ? kernel.launchLoc : "gpu.launch_func",
                   "kernel '" + std::string(kernel.name) + "' aborted in " +
                       where + ": " + cause);
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
      // The program's own abort(), so that a failed assertion is an error.
      {"abort", reinterpret_cast<void *>(&programAbort)},
  };
}

bool describeDevices(std::string &text, std::string &error) {
  text = "0: the host CPU (" +
         std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
         " hardware threads)\n";
  return true;
}

bool queryDeviceChip(int device, std::string &chip, std::string &error) {
  chip.clear();
  Status status = runtime().setDefaultDevice(device);
  if (!status.ok()) {
    error = status.message();
    return false;
  }
  return true;
}

bool initializeBackend(const BackendOptions &options, std::string &error) {
  installFaultHandler();
  Status status = runtime().setDefaultDevice(options.device);
  if (!status.ok()) {
    error = status.message();
    return false;
  }
  return true;
}

void synchronizeBackend() {
  check(runtime().synchronizeStream(nullptr), nullptr);
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

void *mgpuModuleLoad(void *, size_t) {
  gpuBinariesNotSupported("mgpuModuleLoad");
}

void *mgpuModuleLoadJIT(void *, int32_t) {
  gpuBinariesNotSupported("mgpuModuleLoadJIT");
}

void mgpuModuleUnload(void *) { gpuBinariesNotSupported("mgpuModuleUnload"); }

void *mgpuModuleGetFunction(void *, const char *) {
  gpuBinariesNotSupported("mgpuModuleGetFunction");
}

void mgpuLaunchKernel(void *, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                      intptr_t, int32_t, void *, void **, void **, size_t) {
  gpuBinariesNotSupported("mgpuLaunchKernel");
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
  check(runtime().hostRegister(ptr, sizeBytes, "gpu.host_register"),
        "gpu.host_register");
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
  check(runtime().timerElapsedNs(timer, nanoseconds), "mgpuTimerElapsedNs");
  return nanoseconds;
}

//===----------------------------------------------------------------------===//
// Kernels compiled for the host (HostKernelAbi.def).
//===----------------------------------------------------------------------===//

void mgpuLaunchHostKernelAt(void *entry, int64_t gridX, int64_t gridY,
                            int64_t gridZ, int64_t blockX, int64_t blockY,
                            int64_t blockZ, int64_t dynamicSharedBytes,
                            int64_t staticSharedBytes, int32_t flags,
                            void *args, int64_t argsBytes, void *stream,
                            const char *kernelName, const char *loc) {
  KernelLaunch launch;
  launch.entry = reinterpret_cast<HostKernelEntry>(entry);
  launch.grid[0] = gridX;
  launch.grid[1] = gridY;
  launch.grid[2] = gridZ;
  launch.block[0] = blockX;
  launch.block[1] = blockY;
  launch.block[2] = blockZ;
  launch.dynamicSharedBytes = dynamicSharedBytes;
  launch.staticSharedBytes = staticSharedBytes;
  launch.flags = flags;
  launch.name = kernelName && *kernelName ? kernelName : "(unnamed)";
  check(runtime().launchKernel(launch, args, argsBytes, stream, loc), loc);
}

void mgpuHostBarrierAt(void *context, const char *loc) {
  FiberBlock::barrier(fiberContext(context, loc, "gpu.barrier"), loc);
}

uint64_t mgpuHostShuffleAt(void *context, uint64_t value, int32_t sourceLane,
                           int32_t width, const char *loc) {
  return FiberBlock::shuffle(fiberContext(context, loc, "gpu.shuffle"), value,
                             sourceLane, width, loc);
}

void mgpuHostCheckAccessAt(intptr_t address, int64_t bytes, int32_t isStore,
                           int32_t badDimension, int64_t badIndex,
                           int64_t badSize, int64_t threadX, int64_t threadY,
                           int64_t threadZ, int64_t blockX, int64_t blockY,
                           int64_t blockZ, intptr_t loc) {
  const char *what = isStore ? "store" : "load";
  Status status;
  if (badDimension >= 0)
    status =
        Status::error("index " + std::to_string(badIndex) + " of dimension " +
                      std::to_string(badDimension) + " is outside [0, " +
                      std::to_string(badSize) + "), the memref's size there");
  else
    status = runtime().memory().checkRange(reinterpret_cast<void *>(address),
                                           static_cast<uint64_t>(bytes), what);
  if (status.ok())
    return;
  const char *kernel = runningKernel().name;
  int64_t thread[3] = {threadX, threadY, threadZ};
  int64_t block[3] = {blockX, blockY, blockZ};
  auto ids = [](const int64_t *id) {
    return "(" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " +
           std::to_string(id[2]) + ")";
  };
  reportFatalError(
      reinterpret_cast<const char *>(loc),
      std::string(badDimension >= 0 ? "out-of-bounds " : "invalid ") + what +
          " in kernel '" + (kernel ? kernel : "(unknown)") + "', block " +
          ids(block) + ", thread " + ids(thread) + ": " + status.message());
}

} // extern "C"
