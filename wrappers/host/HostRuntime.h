//===- HostRuntime.h - The host backend's runtime, one method per op ------===//
//
// The Runtime (wrappers/Runtime.h) of the host backend: device memory in
// an arena of host memory, streams run by worker threads (StreamManager),
// timers read where a stream gets to their points (TimerTable), kernels
// compiled into the program and run by a pool of workers
// (HostKernelWrappers.cpp launches them). Particular to the host:
//
// - initialize installs the fault handler that turns a fault of a kernel or
//   of the program's host code into an error; there is one device, 0, and
//   its chip is empty: kernels run on the host.
// - free marks the allocation freed at once; its pages are released when
//   the stream reaches the free (the null stream: after all work enqueued
//   so far).
// - Pinning is a no-op; the registry still checks what CUDA checks.
// - GPU binaries are refused (gpuBinariesNotSupported): this backend runs
//   kernels compiled into the program.
// - finalize also joins the kernel executor's workers; the runtime can be
//   used again afterwards.
//
// Checks happen when an op is enqueued, on the calling thread, in program
// order: the allocation table is updated at enqueue time too, so a copy
// enqueued after an asynchronous free of its buffer is a use after free,
// deterministically, whatever the streams have run so far.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTRUNTIME_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTRUNTIME_H

#include "wrappers/Runtime.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/HostKernels.h"
#include "wrappers/host/HostMemory.h"
#include "wrappers/host/HostStreams.h"
#include "wrappers/host/HostTimers.h"
#include "wrappers/host/StreamHazards.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

class HostRuntime final : public Runtime {
public:
  HostRuntime() : HostRuntime(DeviceMemory::Options()) {}
  explicit HostRuntime(DeviceMemory::Options memoryOptions);

#include "wrappers/RuntimeOverrides.inc"

  std::string describeDeviceMemory(const void *ptr) override {
    return deviceMemory.describe(ptr);
  }

  /// Why GPU binaries (loadModule, ..., launch) are refused here.
  static Status gpuBinariesNotSupported();

  /// gpu.launch_func of a kernel compiled for the host: checks the launch,
  /// copies the `argsBytes` bytes at `args` (16-byte aligned), and enqueues
  /// a task that runs the whole grid on the kernel executor. A failure of a
  /// block while it runs (a deadlock, ...) ends the process at once.
  Status launchKernel(const KernelLaunch &launch, const void *args,
                      int64_t argsBytes, void *stream, const char *loc);

  DeviceMemory &memory() { return deviceMemory; }
  const StreamHazards &hazards() const { return streamHazards; }
  const HostRegistry &registry() const { return hostRegistry; }
  StreamManager &streams() { return streamManager; }
  KernelExecutor &kernels() { return kernelExecutor; }

private:
  /// racecheck: the op at `loc` reads or writes the bytes of `runs`
  /// (sorted, disjoint) on `stream`, a hazard if an op on another stream
  /// that nothing ordered before it touches them too; on the null stream,
  /// it waits for every stream first.
  void noteStreamAccess(void *stream, std::vector<StreamHazards::Range> runs,
                        bool write, const char *loc);
  /// The same for [begin, begin + bytes).
  void noteStreamAccess(void *stream, const void *begin, uint64_t bytes,
                        bool write, const char *loc);

  /// initcheck, for a run of a copy as it is enqueued: reports the bytes of
  /// `src` that nothing wrote, and marks `dst` written.
  void checkCopiedBytes(char *dst, const char *src, uint64_t bytes,
                        const char *loc);

  // Declared in this order so that the streams, whose tasks use the memory
  // and the kernel executor, are shut down before those go.
  DeviceMemory deviceMemory;
  HostRegistry hostRegistry;
  KernelExecutor kernelExecutor;
  StreamManager streamManager;
  TimerTable timerTable{streamManager};
  /// Inert unless initialize found racecheck on.
  StreamHazards streamHazards;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTRUNTIME_H
