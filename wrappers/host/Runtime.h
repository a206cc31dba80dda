//===- Runtime.h - The host backend's runtime, one method per mgpu op -----===//
//
// The Runtime (wrappers/Runtime.h) of the host backend: device memory in
// an arena of host memory, streams run by worker threads, kernels compiled
// into the program and run by a pool of workers (HostKernelWrappers.cpp
// launches them).
//
// Checks happen when an op is enqueued, on the calling thread, in program
// order: the allocation table is updated at enqueue time too, so a copy
// enqueued after an asynchronous free of its buffer is a use after free,
// deterministically, whatever the streams have run so far.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_RUNTIME_H
#define GPU_RUNNER_WRAPPERS_HOST_RUNTIME_H

#include "wrappers/Runtime.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/DeviceMemory.h"
#include "wrappers/host/Kernel.h"
#include "wrappers/host/Stream.h"
#include "wrappers/host/Timer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

class HostRuntime final : public Runtime {
public:
  HostRuntime() : HostRuntime(DeviceMemory::Options()) {}
  explicit HostRuntime(DeviceMemory::Options memoryOptions);

  /// Installs the fault handler that turns a fault of a kernel or of the
  /// program's host code into an error; the host has one device, 0.
  Status initialize(int device) override;
  Status describeDevices(std::string &text) override;
  /// Empty: kernels run on the host.
  Status getDeviceChip(int device, std::string &chip) override;
  Status synchronize() override;
  /// Also joins the kernel executor's workers. The runtime can be used
  /// again afterwards.
  Status finalize(std::vector<Warning> &leaks) override;

  // Streams and events; see StreamManager.
  Status createStream(void *&stream, const char *loc) override;
  Status destroyStream(void *token, const char *loc) override;
  Status synchronizeStream(void *token, const char *loc) override;
  Status joinStream(void *stream, void *dependency, const char *loc) override;
  Status recordEventOnStream(void *stream, void *&event,
                             const char *loc) override;
  Status streamFromToken(void *token, void *&stream, const char *loc) override;
  Status createEvent(void *&event, const char *loc) override;
  Status destroyEvent(void *event, const char *loc) override;
  Status recordEvent(void *event, void *stream, const char *loc) override;
  Status synchronizeEvent(void *event, const char *loc) override;
  Status streamWaitEvent(void *stream, void *event, const char *loc) override;

  Status allocate(uint64_t bytes, void *stream, bool hostShared,
                  const char *loc, void *&result) override;
  /// Marks the allocation freed now; its pages are released when `stream`
  /// reaches the free (the null stream: after all work enqueued so far).
  Status free(void *ptr, void *stream, const char *loc) override;
  Status memcpy(void *dst, const void *src, uint64_t bytes, void *stream,
                const char *loc) override;
  Status memcpyStrided(int64_t rank, void *dstDescriptor, void *srcDescriptor,
                       int64_t elementSizeBytes, void *stream,
                       const char *loc) override;
  Status memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                uint64_t count, void *stream, const char *loc) override;
  Status memsetStrided(int64_t rank, void *descriptor, int64_t elementSizeBytes,
                       uint64_t value, void *stream, const char *loc) override;
  /// Pinning is a no-op here; the registry still checks what CUDA checks.
  Status hostRegister(void *ptr, uint64_t bytes, const char *loc) override;
  Status hostUnregister(void *ptr, const char *loc) override;
  /// The host backend has one device, 0.
  Status setDefaultDevice(int32_t device, const char *loc) override;

  /// A steady clock read where the stream gets to the point; see TimerTable.
  Status createTimer(void *&timer, const char *loc) override;
  Status destroyTimer(void *timer, const char *loc) override;
  Status startTimer(void *timer, void *stream, const char *loc) override;
  Status stopTimer(void *timer, void *stream, const char *loc) override;
  Status getTimerElapsedNs(void *timer, int64_t &nanoseconds,
                           const char *loc) override;

  /// This backend runs kernels compiled into the program, never GPU
  /// binaries: these fail (gpuBinariesNotSupported).
  Status loadModule(const void *data, uint64_t bytes, int32_t format,
                    int optLevel, void *&module, const char *loc) override;
  Status unloadModule(void *module, const char *loc) override;
  Status getFunction(void *module, const char *name, void *&function,
                     const char *loc) override;
  Status launch(void *function, const GpuLaunch &launch, void *stream,
                void **params, const char *loc) override;
  static Status gpuBinariesNotSupported();

  /// gpu.launch_func of a kernel compiled for the host: checks the launch,
  /// copies the `argsBytes` bytes at `args` (16-byte aligned), and enqueues
  /// a task that runs the whole grid on the kernel executor. A failure of a
  /// block while it runs (a deadlock, ...) ends the process at once.
  Status launchKernel(const KernelLaunch &launch, const void *args,
                      int64_t argsBytes, void *stream, const char *loc);

  DeviceMemory &memory() { return deviceMemory; }
  StreamManager &streams() { return streamManager; }
  KernelExecutor &kernels() { return kernelExecutor; }

private:
  // Declared in this order so that the streams, whose tasks use the memory
  // and the kernel executor, are shut down before those go.
  DeviceMemory deviceMemory;
  HostRegistry hostRegistry;
  KernelExecutor kernelExecutor;
  StreamManager streamManager;
  TimerTable timerTable{streamManager};
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_RUNTIME_H
