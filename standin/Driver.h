//===- Driver.h - The state and semantics both stand-ins share ------------===//
//
// One process-wide Driver holds what a GPU driver holds: devices and their
// primary contexts, the current device of each thread, memory, streams,
// events and modules. Its methods implement the semantics the CUDA driver
// API and the HIP runtime API agree on, failing with a vendor-neutral Error
// (Driver.cpp, DriverStreams.cpp, DriverModules.cpp); each front end (the
// Cuda*.cpp and Hip*.cpp files) exports the vendor's entry points over it,
// checks the arguments that only its API has, and turns Errors into the
// vendor's codes (Vendor).
//
// Handles given to the program (streams, events, modules, functions,
// contexts) are numbers dressed as pointers, never reused, so that a handle
// used after it was destroyed is an error rather than a use of freed memory.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_DRIVER_H
#define GPU_RUNNER_STANDIN_DRIVER_H

#include "standin/Error.h"
#include "standin/Images.h"
#include "standin/Memory.h"
#include "standin/Streams.h"
#include "standin/Trace.h"
#include "standin/Vendor.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

/// One side of a copy: a pitched region, its start offsets in bytes (x) and
/// rows (y) and slices (z).
struct CopySide {
  const void *base = nullptr;
  uint64_t x = 0, y = 0, z = 0;
  uint64_t pitch = 0;
  /// Rows per slice; used when depth > 1.
  uint64_t sliceRows = 0;
  /// The memory type the call declared: the pointer must be of it.
  enum class Expect { Any, Host, Device } expect = Expect::Any;
};

struct CopyExtent {
  uint64_t widthBytes = 0, height = 1, depth = 1;
  /// 2-D and 3-D copies: the pitch rules apply, and pitches may be at most
  /// `maxPitch` (CU_DEVICE_ATTRIBUTE_MAX_PITCH).
  bool pitched = false;
  uint64_t maxPitch = UINT64_MAX;
};

class KernelProgram;
struct CompiledKernel;
struct GridRun;

struct Module {
  uint64_t id = 0;
  int device = 0;
  ImageInfo image;
  /// The kernels compiled from the image's IR, once given
  /// (gpuRunnerStandinModuleAttachIR); launches hold it while they run.
  std::shared_ptr<const KernelProgram> program;
};

struct Function {
  uint64_t id = 0;
  uint64_t module = 0;
  int device = 0;
  KernelInfo kernel;
  /// The image did not list its kernels: nothing is known of this one.
  bool unknown = false;
  /// The dynamic shared memory a launch may ask for, once set; 0 for the
  /// default.
  uint64_t maxDynamicSharedBytes = 0;
  /// Clusters may be larger than the portable size.
  bool nonPortableClusters = false;
};

/// A launch's sizes and arguments, as both APIs take them.
struct LaunchRequest {
  std::array<uint64_t, 3> grid{}, block{}, cluster{1, 1, 1};
  bool useCluster = false;
  uint64_t sharedBytes = 0;
  void **kernelParams = nullptr;
  void **extra = nullptr;
  /// What `extra` gives (checkLaunchExtra): the parameter buffer and its
  /// size.
  const void *extraBuffer = nullptr;
  uint64_t extraBytes = 0;
};

/// Device limits the launch checks use; the front ends answer the same
/// values from their attribute queries.
struct DeviceLimits {
  std::array<uint64_t, 3> maxGrid{}, maxBlock{};
  uint64_t maxThreadsPerBlock = 0;
  uint64_t maxSharedPerBlock = 0;
  uint64_t maxSharedPerBlockOptin = 0;
  uint64_t maxPitch = 0;
  uint64_t maxClusterBlocks = 0;
  uint64_t maxNonPortableClusterBlocks = 0;
};

enum class HandleKind : uintptr_t {
  Context = 1,
  Stream = 2,
  Event = 3,
  Module = 4,
  Function = 5
};

class Call;

/// A setting of the environment the stand-in cannot use: the message on
/// stderr, and the process ends with status 2.
[[noreturn]] void failSetting(const std::string &message);

class Driver {
public:
  /// The process's driver, made on first use from the environment. A bad
  /// setting ends the process with a message and status 2.
  static Driver &get();

  //===--------------------------------------------------------------------===//
  // Devices and contexts.
  //===--------------------------------------------------------------------===//

  int getDeviceCount() const { return deviceCount; }
  uint64_t getDeviceMemory() const { return bytesPerDevice; }
  bool isInitialized() const { return initialized; }
  void initialize() { initialized = true; }

  /// The calling thread's current device, or -1.
  int getCurrentDevice() const;
  void setCurrentDevice(int device);
  /// CUDA's primary context: retained once per cuDevicePrimaryCtxRetain.
  void retainContext(int device);
  Error releaseContext(int device);
  /// A context handle names a device whose primary context is retained.
  bool isContextActive(int device) const;

  /// The sticky error of `device`'s context, or 0.
  int getStickyCode(int device) const;
  void setStickyCode(int device, int code);

  //===--------------------------------------------------------------------===//
  // Memory.
  //===--------------------------------------------------------------------===//

  Error allocate(uint64_t bytes, bool managed, void *&pointer);
  /// Waits for all work of the pointer's device first: cuMemFree and hipFree
  /// synchronize (CUDA: "API synchronization behavior"; hip_runtime_api.h,
  /// hipFree: "This API performs an implicit hipDeviceSynchronize()").
  Error free(void *pointer);
  void getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes);
  Error registerHost(void *pointer, uint64_t bytes, unsigned flags,
                     bool readOnly);
  Error unregisterHost(void *pointer);
  Error getMappedPointer(const void *pointer, void *&device);
  MemoryKind classify(const void *pointer);
  bool canRead(const void *pointer, uint64_t bytes);

  //===--------------------------------------------------------------------===//
  // Streams and events. A null stream handle is the current device's null
  // stream.
  //===--------------------------------------------------------------------===//

  Error createStream(bool nonBlocking, void *&handle);
  Error destroyStream(void *handle);
  Error queryStream(void *handle);
  Error synchronizeStream(void *handle);
  /// Waits for every stream of the current device.
  Error synchronizeDevice();
  /// The device a stream handle belongs to.
  Error getStreamDevice(void *handle, int &device);

  Error createEvent(unsigned flags, bool timing, void *&handle);
  Error destroyEvent(void *handle);
  Error recordEvent(void *event, void *stream);
  Error queryEvent(void *handle);
  Error synchronizeEvent(void *handle);
  Error streamWaitEvent(void *stream, void *event);
  Error getElapsedMilliseconds(void *start, void *stop, float &milliseconds);

  //===--------------------------------------------------------------------===//
  // Copies and memsets, enqueued on a stream.
  //===--------------------------------------------------------------------===//

  /// Checks both sides (the pitch rules for pitched copies, each side within
  /// one allocation or in host memory it may read or write, the memory
  /// types declared) and enqueues the copy. Follows CUDA's documented
  /// synchronization for pageable host memory: a copy from it is staged
  /// before the call returns, a copy to it, or between two host ranges,
  /// returns once done.
  Error copy(const CopySide &src, const CopySide &dst, const CopyExtent &extent,
             void *stream);
  /// `height` rows of `width` elements of `elementBytes` bytes, `pitch`
  /// bytes apart, in device or managed memory.
  Error fill(void *dst, uint64_t pitch, uint64_t value, unsigned elementBytes,
             uint64_t width, uint64_t height, void *stream);

  //===--------------------------------------------------------------------===//
  // Modules and launches.
  //===--------------------------------------------------------------------===//

  Error loadModule(ImageInfo image, void *&handle);
  Error unloadModule(void *handle);
  Error getFunction(void *module, const char *name, void *&handle);
  /// Calls `update` on the function a handle names, with the lock held.
  Error updateFunction(void *handle,
                       const std::function<Error(Function &)> &update);
  /// The `extra` array of `request`: pairs of a marker and a value, ended
  /// by `end` (CU_LAUNCH_PARAM_END, HIP_LAUNCH_PARAM_END), all readable;
  /// sets the request's extraBuffer and extraBytes.
  Error checkLaunchExtra(LaunchRequest &request, const void *bufferPointer,
                         const void *bufferSize, const void *end);
  /// Compiles the LLVM IR of a module's image (DriverKernels.cpp); `message`
  /// says why it cannot.
  Error attachKernelIR(void *handle, const void *bitcode, uint64_t bytes,
                       std::string &message);
  /// `gpuRunnerStandinModuleAttachIR` of either vendor: its arguments
  /// checked, the IR attached, why it was not written to `log` (up to
  /// `logBytes`) and to the trace line `call`.
  Error attachKernelIR(Call &call, void *module, const void *bitcode,
                       size_t bytes, char *log, size_t logBytes);
  /// Checks a launch against the device's and the function's limits and
  /// its arguments (`why` names what is wrong), then enqueues it on the
  /// stream if the module has its kernels' IR, else refuses it:
  /// KernelsNotRun.
  Error launch(void *function, const LaunchRequest &request,
               const DeviceLimits &limits, void *stream, std::string &why);

  /// Writes what kernels printed (stdout) and their failed assertions
  /// (stderr) since the last time: CUDA flushes device printf's buffer at
  /// launches, synchronizations and module loads (CUDA C++ Programming
  /// Guide, "Formatted Output").
  void flushKernelOutput();

  //===--------------------------------------------------------------------===//
  // The trace and the leak report.
  //===--------------------------------------------------------------------===//

  CallLog &getLog() { return log; }
  std::string describePointer(const void *pointer);
  std::string describeHandle(HandleKind kind, const void *handle);
  /// Prints what the program never released on stderr; returns how many.
  int reportLeaks();

  static void *makeHandle(HandleKind kind, uint64_t id);
  static bool readHandle(const void *handle, HandleKind kind, uint64_t &id);

private:
  Driver() = default;
  void configure();

  /// Needs the lock. The stream a handle names (the current device's null
  /// stream for null), or InvalidHandle.
  Error findStream(void *handle, std::shared_ptr<Stream> &stream);
  Error findEvent(void *handle, std::shared_ptr<Event> &event);
  std::shared_ptr<Stream> &getNullStream(int device);
  /// The fences of all work on `device`'s streams (-1: every device),
  /// destroyed ones included. Needs the lock.
  std::vector<Fence> getAllWork(int device);
  /// Submits with the implicit synchronization of the null stream: work on
  /// it waits for all blocking streams of its device, work on a blocking
  /// stream waits for it (CUDA driver API, "Stream synchronization
  /// behavior"). Needs the lock.
  Fence submit(Stream &stream, std::function<void()> work,
               std::vector<Fence> waits = {}, bool marker = false);
  /// Waits for `stream`; for a null stream, for what it synchronizes with.
  void synchronizeLocked(std::unique_lock<std::mutex> &lock, Stream &stream);
  /// After a wait: the sticky error a kernel left meanwhile, else Success.
  Error afterWait(int device) const;
  /// Copies a checked launch's parameters and queues its grid on
  /// `stream`. Needs the lock.
  Error enqueueLaunch(Stream &stream, const Module &module,
                      const CompiledKernel &kernel,
                      const LaunchRequest &request);
  /// A grid's end, on its stream's worker: its output, and its failure.
  void finishGrid(GridRun &grid, int device);

  int deviceCount = 2;
  uint64_t bytesPerDevice = 0;
  bool initialized = false;
  int leakExitCode = 0;

  Scheduler scheduler;
  Memory memory;
  CallLog log;
  struct DeviceState {
    int retained = 0;
    int sticky = 0;
    std::shared_ptr<Stream> nullStream;
  };
  std::vector<DeviceState> devices;
  std::map<uint64_t, std::shared_ptr<Stream>> streams;
  /// Destroyed streams that may still have work: a device's
  /// synchronization waits for it too.
  std::vector<std::shared_ptr<Stream>> retiredStreams;
  std::map<uint64_t, std::shared_ptr<Event>> events;
  std::map<uint64_t, Module> modules;
  std::map<uint64_t, Function> functions;
  uint64_t nextId = 1;
  /// Kernel output not flushed yet, under its own lock: grids end on
  /// stream workers.
  std::mutex outputMutex;
  std::string pendingOutput, pendingErrors;
};

/// An entry point that takes one handle and makes one Driver call of it
/// (cuStreamQuery, hipEventDestroy, ...): its trace line, its checks, and
/// the vendor's code.
int callOnHandle(const char *entry, const char *argument, HandleKind kind,
                 void *handle, Error (Driver::*operation)(void *));

/// "8,8,4": the parameter sizes the image gives a function, or "unknown".
std::string describeParamSizes(void *function);

/// The trace line and the common checks of one call of an entry point:
///
///   Call call("cuMemAlloc_v2");
///   call.arg("bytesize", bytesize);
///   if (int code = call.enter(Call::Needs::Context)) return code;
///   ...
///   return call.done(Error::Success);
class Call {
public:
  enum class Needs {
    /// Works before initialization and without a context.
    Nothing,
    /// CUDA: after cuInit.
    Init,
    /// A current device whose context is live and has no sticky error.
    Context,
  };

  explicit Call(const char *entry);

  Call &arg(const char *name, uint64_t value);
  Call &argSigned(const char *name, int64_t value);
  Call &argText(const char *name, const std::string &value);
  Call &argPointer(const char *name, const void *pointer);
  Call &argHandle(const char *name, HandleKind kind, const void *handle);
  /// An output value, written after the result.
  Call &out(const char *name, const std::string &value);

  /// An injected fault, or the first check that fails: a vendor code to
  /// return at once; 0 to go on.
  int enter(Needs needs);
  /// Writes the trace line; returns the vendor's code.
  int done(Error error);
  int done(int code);

private:
  const char *entry;
  std::string args, outputs;
  bool tracing;
  bool injected = false;
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_DRIVER_H
