//===- Runtime.h - The host backend's runtime, one method per mgpu op -----===//
//
// Everything the mgpu ABI does on the host backend, as methods that return a
// Status instead of ending the process, so that unit tests can run each op
// and read its error. MgpuWrappers.cpp is the thin extern "C" layer over one
// process-wide instance.
//
// Checks happen when an op is enqueued, on the calling thread, in program
// order: the allocation table is updated at enqueue time too, so a copy
// enqueued after an asynchronous free of its buffer is a use after free,
// deterministically, whatever the streams have run so far.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_RUNTIME_H
#define GPU_RUNNER_WRAPPERS_HOST_RUNTIME_H

#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/DeviceMemory.h"
#include "wrappers/host/Kernel.h"
#include "wrappers/host/Stream.h"
#include "wrappers/host/Timer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

class HostRuntime {
public:
  HostRuntime() : HostRuntime(DeviceMemory::Options()) {}
  explicit HostRuntime(DeviceMemory::Options memoryOptions);

  // Streams and events; see StreamManager. destroyStream, synchronizeStream
  // and the dependency of joinStream take tokens: streams, or events.
  Status createStream(void *&stream);
  Status destroyStream(void *stream);
  Status synchronizeStream(void *stream);
  Status joinStream(void *stream, void *dependency);
  /// A new event recorded at the current end of `stream`.
  Status recordEventOnStream(void *stream, void *&event);
  /// The stream an op depending on `token` runs on (see MgpuAbi.def).
  Status streamFromToken(void *token, void *&stream);
  Status createEvent(void *&event);
  Status destroyEvent(void *event);
  Status recordEvent(void *event, void *stream);
  Status synchronizeEvent(void *event);
  Status streamWaitEvent(void *stream, void *event);

  /// Allocates at once, even for an asynchronous op: the memory is usable by
  /// anything enqueued later on any stream.
  Status allocate(uint64_t bytes, void *stream, bool hostShared,
                  const char *loc, void *&result);
  /// Marks the allocation freed now; its pages are released when `stream`
  /// reaches the free (the null stream: after all work enqueued so far).
  Status free(void *ptr, void *stream, const char *loc);

  Status memcpy(void *dst, const void *src, uint64_t bytes, void *stream,
                const char *loc);
  Status memcpyStrided(int64_t rank, void *dstDescriptor, void *srcDescriptor,
                       int64_t elementSizeBytes, void *stream, const char *loc);
  /// Fills `count` elements of `elementSizeBytes` (1, 2, 4 or 8) bytes.
  Status memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                uint64_t count, void *stream, const char *loc);
  Status memsetStrided(int64_t rank, void *descriptor, int64_t elementSizeBytes,
                       uint64_t value, void *stream, const char *loc);

  /// Pinning is a no-op here; the registry still checks what CUDA checks.
  Status hostRegister(void *ptr, uint64_t bytes, const char *loc);
  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes, const char *loc);
  Status hostUnregister(void *ptr);
  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes);

  /// Timers (mgpuTimer*): a steady clock read where the stream gets to the
  /// point; see TimerTable.
  Status createTimer(void *&timer);
  Status destroyTimer(void *timer);
  Status startTimer(void *timer, void *stream);
  Status stopTimer(void *timer, void *stream);
  Status timerElapsedNs(void *timer, int64_t &nanoseconds);

  /// The host backend has one device, 0.
  Status setDefaultDevice(int32_t device);

  /// gpu.launch_func of a kernel compiled for the host: checks the launch,
  /// copies the `argsBytes` bytes at `args` (16-byte aligned), and enqueues
  /// a task that runs the whole grid on the kernel executor. A failure of a
  /// block while it runs (a deadlock, ...) ends the process at once.
  Status launchKernel(const KernelLaunch &launch, const void *args,
                      int64_t argsBytes, void *stream, const char *loc);

  /// Why the upstream module and kernel functions (mgpuModuleLoad, ...)
  /// fail here: this backend runs kernels compiled into the program, never
  /// GPU binaries. `function` names the one called.
  static Status gpuBinariesNotSupported(const char *function);

  /// One warning of the leak report: the op that allocated, and the text.
  struct Warning {
    std::string loc;
    std::string message;
  };

  /// Waits for all work, reports the first failure of a task, then lists
  /// every allocation never freed in `leaks` (oldest first), frees them,
  /// forgets all streams, events, timers and registrations, and joins the
  /// kernel executor's workers. The runtime can be used again afterwards.
  Status finalize(std::vector<Warning> &leaks);

  DeviceMemory &memory() { return deviceMemory; }
  StreamManager &streams() { return streamManager; }
  HostRegistry &registry() { return hostRegistry; }
  KernelExecutor &kernels() { return kernelExecutor; }
  TimerTable &timers() { return timerTable; }

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
