//===- Runtime.h - A backend's runtime: one method per mgpu op ------------===//
//
// Everything the mgpu ABI (MgpuAbi.def) does, as methods that return a
// Status instead of ending the process, so that unit tests can run each op
// and read its error. Every method takes the location of the op it serves
// ("file.mlir:12:3", or the op's name where the caller has no location),
// for the records it keeps and the errors it returns.
//
// Each backend implements it once: HostRuntime (host/) on the CPU,
// GpuRuntime (gpu/) over a vendor's driver for CUDA and HIP. The one
// extern "C" layer over it is common/MgpuWrappers.cpp; what stays per
// backend is how kernels are launched (HostKernelAbi.def, DeviceKernelAbi.def).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_RUNTIME_H
#define GPU_RUNNER_WRAPPERS_RUNTIME_H

#include "wrappers/Backend.h"
#include "wrappers/common/RuntimeError.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

/// A launch of a kernel from a GPU binary: sizes, and thread block clusters
/// when `useCluster` is set.
struct GpuLaunch {
  int64_t cluster[3] = {1, 1, 1};
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int32_t sharedMemoryBytes = 0;
  bool useCluster = false;
};

class Runtime {
public:
  virtual ~Runtime() = default;

  //===--------------------------------------------------------------------===//
  // Around the program's run (Backend.h).
  //===--------------------------------------------------------------------===//

  /// Prepares the backend and makes `device` the default device; fails with
  /// a sentence that says what is missing.
  virtual Status initialize(int device) = 0;
  /// One line per device: "0: NVIDIA H200 (sm_90, 139.8 GiB)".
  virtual Status describeDevices(std::string &text) = 0;
  /// The chip kernels for `device` are compiled for ("sm_90"), or empty
  /// where kernels run on the host.
  virtual Status getDeviceChip(int device, std::string &chip) = 0;
  /// Waits for all work enqueued so far on every stream.
  virtual Status synchronize() = 0;

  /// One warning of the report at exit: the op that allocated, and the text.
  struct Warning {
    std::string loc;
    std::string message;
  };
  /// Waits for all work, reports a failure it surfaces, lists what the
  /// program never freed in `leaks` (oldest first), and releases everything.
  virtual Status finalize(std::vector<Warning> &leaks) = 0;

  //===--------------------------------------------------------------------===//
  // Tokens: streams, and events once a token crossed an async.yield. The
  // ops that take tokens accept both, released ones included (MgpuAbi.def).
  //===--------------------------------------------------------------------===//

  virtual Status createStream(void *&stream, const char *loc) = 0;
  virtual Status destroyStream(void *token, const char *loc) = 0;
  virtual Status synchronizeStream(void *token, const char *loc) = 0;
  virtual Status joinStream(void *stream, void *dependency,
                            const char *loc) = 0;
  /// A new event recorded at the current end of `stream`.
  virtual Status recordEventOnStream(void *stream, void *&event,
                                     const char *loc) = 0;
  /// The stream an op whose first dependency is `token` runs on.
  virtual Status streamFromToken(void *token, void *&stream,
                                 const char *loc) = 0;
  virtual Status createEvent(void *&event, const char *loc) = 0;
  virtual Status destroyEvent(void *event, const char *loc) = 0;
  virtual Status recordEvent(void *event, void *stream, const char *loc) = 0;
  virtual Status synchronizeEvent(void *event, const char *loc) = 0;
  virtual Status streamWaitEvent(void *stream, void *event,
                                 const char *loc) = 0;

  //===--------------------------------------------------------------------===//
  // Memory.
  //===--------------------------------------------------------------------===//

  /// Allocates at once, even for an asynchronous op: the memory is usable by
  /// anything enqueued later on any stream.
  virtual Status allocate(uint64_t bytes, void *stream, bool hostShared,
                          const char *loc, void *&result) = 0;
  virtual Status free(void *ptr, void *stream, const char *loc) = 0;
  /// What holds `ptr` if it is device memory the backend knows ("the
  /// 64-byte allocation made by gpu.alloc at f.mlir:3:5"), else an empty
  /// string: the program's free() of device memory is then an error.
  virtual std::string describeDeviceMemory(const void *ptr) { return ""; }
  virtual Status memcpy(void *dst, const void *src, uint64_t bytes,
                        void *stream, const char *loc) = 0;
  virtual Status memcpyStrided(int64_t rank, void *dstDescriptor,
                               void *srcDescriptor, int64_t elementSizeBytes,
                               void *stream, const char *loc) = 0;
  /// Fills `count` elements of `elementSizeBytes` (1, 2, 4 or 8) bytes.
  virtual Status memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                        uint64_t count, void *stream, const char *loc) = 0;
  virtual Status memsetStrided(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes, uint64_t value,
                               void *stream, const char *loc) = 0;
  virtual Status hostRegister(void *ptr, uint64_t bytes, const char *loc) = 0;
  virtual Status hostUnregister(void *ptr, const char *loc) = 0;
  /// Registers exactly the bytes the memref spans.
  Status hostRegisterMemRef(int64_t rank, void *descriptor,
                            int64_t elementSizeBytes, const char *loc);
  Status hostUnregisterMemRef(int64_t rank, void *descriptor,
                              int64_t elementSizeBytes, const char *loc);
  virtual Status setDefaultDevice(int32_t device, const char *loc) = 0;
  /// The device's address of `host`, which must lie in memory that
  /// hostRegister registered.
  virtual Status getDevicePointer(void *host, void *&device,
                                  const char *loc) = 0;

  //===--------------------------------------------------------------------===//
  // Timers (mgpuTimer*): two points recorded on a stream.
  //===--------------------------------------------------------------------===//

  virtual Status createTimer(void *&timer, const char *loc) = 0;
  virtual Status destroyTimer(void *timer, const char *loc) = 0;
  virtual Status startTimer(void *timer, void *stream, const char *loc) = 0;
  virtual Status stopTimer(void *timer, void *stream, const char *loc) = 0;
  virtual Status getTimerElapsedNs(void *timer, int64_t &nanoseconds,
                                   const char *loc) = 0;

  //===--------------------------------------------------------------------===//
  // Time points, for the run's record (RunRecord.h): when a stream
  // reached a point, on the host's clock (getHostClockNs), so that the work
  // of every stream lines up with the host's own events.
  //===--------------------------------------------------------------------===//

  /// Records a point at the current end of `stream` (null: after all work
  /// enqueued so far, as a synchronous op runs).
  virtual Status recordTimePoint(void *stream, void *&point) = 0;
  /// When the stream reached `point`: the steady clock's nanoseconds since
  /// its epoch. Returns false, and keeps the point, while the stream has not
  /// reached it; else forgets it. Never waits. Points the program's work
  /// reached stay readable after finalize.
  virtual bool takeTimePoint(void *point, int64_t &nanoseconds) = 0;
  /// How far from the host's clock a time point's time may be, at most, in
  /// nanoseconds: 0 where the stream reads the host's clock itself; on a
  /// GPU, half the span in which the host saw the device reach a point.
  virtual int64_t getTimePointUncertaintyNs() const { return 0; }

  //===--------------------------------------------------------------------===//
  // GPU binaries: modules, their kernels, launches. The host backend runs
  // kernels compiled into the program instead, and refuses these.
  //===--------------------------------------------------------------------===//

  /// `format` is a DeviceObjectFormat (MgpuAbi.h); assembly is compiled by
  /// the driver with optimization level `optLevel` (0-4).
  virtual Status loadModule(const void *data, uint64_t bytes, int32_t format,
                            int optLevel, void *&module, const char *loc) = 0;
  /// Gives a loaded module the LLVM IR (bitcode) its object was made from,
  /// for a driver that runs kernels from it; other drivers ignore it.
  virtual Status attachKernelIR(void *module, const void *ir, uint64_t bytes,
                                const char *loc) = 0;
  virtual Status unloadModule(void *module, const char *loc) = 0;
  virtual Status getFunction(void *module, const char *name, void *&function,
                             const char *loc) = 0;
  virtual Status launch(void *function, const GpuLaunch &launch, void *stream,
                        void **params, const char *loc) = 0;
};

/// The host's clock that timers and time points read: the steady clock's
/// nanoseconds since its epoch.
inline int64_t getHostClockNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The runtime of the backend the binary was built with, made on first use
/// and never destroyed: at exit, other threads may still call in, and static
/// destructors run in no useful order. finalizeBackend shuts it down.
Runtime &getRuntime();

/// The runtime functions of the backend's way to launch kernels
/// (HostKernelAbi.def or DeviceKernelAbi.def), for the JIT's symbol map.
std::vector<RuntimeSymbol> getKernelAbiSymbols();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_RUNTIME_H
