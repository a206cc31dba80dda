//===- GpuDriver.h - What a GPU backend needs of its vendor's API ---------===//
//
// The CUDA and HIP backends share one runtime (GpuRuntime.h): its checks, its
// token and allocation tables, its error messages. What differs is how a
// stream is created or a rectangle copied, and that is this interface, which
// each backend implements over its vendor's API (cuda/CudaDriver.h,
// hip/HipDriver.h), through the table of entry points it loads at run time
// (cuda/DynamicSymbols.def, hip/DynamicSymbols.def).
//
// Handles are the vendor's, as opaque pointers. A call returns a `Result`:
// 0 for success, else the vendor's error code, which `describe` turns into
// "<error name>: <what it means>".
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_GPU_GPUDRIVER_H
#define GPU_RUNNER_WRAPPERS_GPU_GPUDRIVER_H

#include "wrappers/common/RuntimeError.h"
#include "wrappers/gpu/GpuCopies.h"

#include <cstdint>
#include <string>

namespace gpu_runner {

/// What the runtime keeps of a device it opened.
struct GpuDeviceInfo {
  int index = 0;
  /// The vendor's device and context handles, as the driver needs them.
  void *handle = nullptr;
  void *context = nullptr;
  int64_t maxGrid[3] = {0, 0, 0};
  int64_t maxBlock[3] = {0, 0, 0};
  /// Shared memory a block may have once a kernel opts in.
  int64_t maxSharedPerBlock = 0;
};

/// The launch configuration as the driver takes it.
struct GpuLaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned cluster[3] = {1, 1, 1};
  bool useCluster = false;
  unsigned dynamicSharedBytes = 0;
};

class GpuDriver {
public:
  using Result = int;

  virtual ~GpuDriver() = default;

  /// "CUDA", "HIP": how messages name the vendor.
  virtual const char *vendor() const = 0;
  /// Opens the vendor's library and initializes it, once; fails with a
  /// sentence that names what is missing.
  virtual Status load() = 0;
  /// "<error name>: <what it means>".
  virtual std::string describe(Result result) const = 0;
  /// Errors a kernel leaves behind, after which the device is unusable.
  virtual bool isKernelFault(Result result) const = 0;
  virtual bool isNotReady(Result result) const = 0;
  virtual bool isOutOfMemory(Result result) const = 0;
  /// The binary has no code for this device.
  virtual bool isWrongBinary(Result result) const = 0;
  virtual bool isNotFound(Result result) const = 0;

  // Devices.
  virtual Result getDeviceCount(int &count) = 0;
  /// Opens device `index` (its context retained) and reads its limits.
  virtual Result openDevice(int index, GpuDeviceInfo &info) = 0;
  virtual Result closeDevice(const GpuDeviceInfo &info) = 0;
  /// Makes `info`'s device current on the calling thread.
  virtual Result makeCurrent(const GpuDeviceInfo &info) = 0;
  virtual Result synchronizeDevice() = 0;
  /// "NVIDIA H200", "sm_90", and the memory in bytes.
  virtual Result describeDevice(int index, std::string &name, std::string &chip,
                                uint64_t &memory) = 0;
  virtual Result getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) = 0;

  // Streams and events. The null stream is the one that synchronizes with
  // all others (CUDA's legacy default stream).
  virtual void *getNullStream() = 0;
  virtual Result createStream(void *&stream) = 0;
  virtual Result destroyStream(void *stream) = 0;
  /// Success when the stream has nothing left to run; isNotReady else.
  virtual Result queryStream(void *stream) = 0;
  virtual Result synchronizeStream(void *stream) = 0;
  virtual Result createEvent(void *&event) = 0;
  virtual Result destroyEvent(void *event) = 0;
  virtual Result recordEvent(void *event, void *stream) = 0;
  /// Success when the event's record has been reached (or it was never
  /// recorded); isNotReady else.
  virtual Result queryEvent(void *event) = 0;
  virtual Result synchronizeEvent(void *event) = 0;
  virtual Result streamWaitEvent(void *stream, void *event) = 0;
  /// An event that records when it is reached, for timers.
  virtual Result createTimingEvent(void *&event) = 0;
  /// Milliseconds from `start` to `stop`, both reached.
  virtual Result getElapsedMilliseconds(float &milliseconds, void *start,
                                        void *stop) = 0;

  // Memory. Copies use unified addressing: any pointer, any direction.
  virtual Result allocate(void *&pointer, uint64_t bytes) = 0;
  virtual Result allocateManaged(void *&pointer, uint64_t bytes) = 0;
  virtual Result free(void *pointer) = 0;
  virtual Result copy(const RectangularCopy &copy, void *stream) = 0;
  /// `count` elements of 1, 2, 4 or 8 bytes.
  virtual Result fill(void *dst, uint64_t value, int64_t elementSizeBytes,
                      uint64_t count, void *stream) = 0;
  /// `height` rows of `width` elements of 1, 2 or 4 bytes, `pitch` bytes
  /// apart.
  virtual Result fillRows(void *dst, uint64_t pitch, uint64_t value,
                          int64_t elementSizeBytes, uint64_t width,
                          uint64_t height, void *stream) = 0;
  virtual Result hostRegister(void *pointer, uint64_t bytes) = 0;
  virtual Result hostUnregister(void *pointer) = 0;
  /// The device's address of registered host memory.
  virtual Result getMappedPointer(void *&device, void *host) = 0;

  // Kernels. `format` is a DeviceObjectFormat; `log` receives what the
  // driver said when it could not compile assembly.
  virtual Result loadModule(void *&module, const void *data, uint64_t bytes,
                            int32_t format, int optLevel, std::string &log) = 0;
  /// Gives a loaded module the LLVM IR (bitcode) its object was made from,
  /// where the driver takes it (a stand-in's optional entry point,
  /// standin/StandinKernels.h); a driver without that entry point, as every
  /// real one, does nothing and succeeds. `log` receives why it refused.
  virtual Result attachKernelIR(void * /*module*/, const void * /*bitcode*/,
                                uint64_t /*bytes*/, std::string & /*log*/) {
    return 0;
  }
  virtual Result unloadModule(void *module) = 0;
  virtual Result getFunction(void *&function, void *module,
                             const char *name) = 0;
  virtual Result getFunctionLimits(void *function, int64_t &staticSharedBytes,
                                   int64_t &maxThreads) = 0;
  virtual Result setMaxDynamicSharedBytes(void *function, int64_t bytes) = 0;
  /// Whether the driver can make a launch like `config`: fails with a
  /// sentence that says what it lacks (an optional entry point the driver
  /// does not provide, a feature the vendor does not have).
  virtual Status checkLaunch(const GpuLaunchConfig &config) const = 0;
  virtual Result launch(void *function, const GpuLaunchConfig &config,
                        void *stream, void **params) = 0;
};

/// The driver of the backend the binary was built with: each GPU backend's
/// wrapper library defines it, next to getBackend().
GpuDriver &getGpuDriver();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_GPU_GPUDRIVER_H
