//===- GpuRuntime.h - The GPU backends' runtime, one method per mgpu op ---===//
//
// The Runtime (wrappers/Runtime.h) of the GPU backends (CUDA, HIP), over
// the vendor's API behind GpuDriver.h.
//
// - Devices: one context per device (CUDA's primary context), made current
//   on every thread that calls in. gpu.set_default_device switches
//   the device that later allocations, streams and module loads use.
// - Tokens: the handles the program holds for streams and events are ids
//   into a table, not driver handles, and never reused. A token stays a
//   valid dependency after a gpu.wait or a join released it (the gpu
//   dialect's tokens are values): its id then names the work enqueued before
//   the release, which is done, or still running on a stream nothing new is
//   enqueued on, or behind an event (`draining`). New work on a released
//   stream is still an error at that op rather than a use of a dead stream.
//   Streams are created blocking, so the synchronous form of an op (the null
//   stream) runs on the legacy default stream, after all work enqueued before
//   it on any stream, and waits for it. Idle streams are kept for reuse; a
//   released stream only once its work is done, so that reusing it can never
//   make an old token wait for new work.
// - Memory: an allocation table of what gpu.alloc returned, checked by
//   frees, copies and memsets (out of bounds, use after free, double free),
//   and reported at exit for what was never freed.
// - Kernels: a module is loaded once; each function is looked up once and
//   remembers its name, so that launch errors, and faults noticed at a later
//   synchronization, name the kernel and the launch that ran it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_GPU_GPURUNTIME_H
#define GPU_RUNNER_WRAPPERS_GPU_GPURUNTIME_H

#include "wrappers/Runtime.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/common/StridedCopy.h"
#include "wrappers/gpu/GpuDriver.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpu_runner {

class GpuRuntime final : public Runtime {
public:
  /// `driver` outlives the runtime.
  explicit GpuRuntime(GpuDriver &driver) : driver(driver) {}
  GpuRuntime(const GpuRuntime &) = delete;
  GpuRuntime &operator=(const GpuRuntime &) = delete;

#include "wrappers/RuntimeOverrides.inc"

  std::string describeDeviceMemory(const void *ptr) override;
  int64_t getTimePointUncertaintyNs() const override;

private:
  using Result = GpuDriver::Result;
  struct Device {
    GpuDeviceInfo info;
    /// Streams a gpu.wait released once they were idle, for reuse.
    std::vector<void *> idleStreams;
  };
  /// A kernel launch, remembered so that a fault noticed later names it.
  struct LaunchRecord {
    std::string kernel;
    std::string loc;
  };
  struct Token {
    bool isEvent = false;
    int device = 0;
    void *stream = nullptr;
    void *event = nullptr;
    LaunchRecord lastLaunch;
    /// Threads waiting in synchronizeStream for this token's work: a
    /// released token is not retired under them.
    unsigned waiters = 0;
  };
  struct Module {
    void *handle = nullptr;
    int device = 0;
  };
  struct Function {
    void *handle = nullptr;
    const Module *module = nullptr;
    std::string name;
    int device = 0;
    int64_t staticSharedBytes = 0;
    int64_t maxThreads = 0;
    /// The dynamic shared memory the function is currently allowed.
    int64_t dynamicSharedLimit = 48 * 1024;
  };
  struct Timer {
    int device = 0;
    void *start = nullptr;
    void *stop = nullptr;
    bool started = false;
    bool stopped = false;
  };
  /// A point of the run's record (Runtime::recordTimePoint): an event
  /// until the device reached it, then the host clock's time.
  struct TimePoint {
    int device = 0;
    void *event = nullptr;
    std::optional<int64_t> ns;
  };
  /// An event the device reached at a known host time, that the device's
  /// time points are measured from.
  struct ClockOrigin {
    void *event = nullptr;
    /// When the device reached it, give or take `uncertaintyNs`.
    int64_t hostNs = 0;
    int64_t uncertaintyNs = 0;
  };
  /// Aligns the current device's clock with the host's: an origin event
  /// recorded on `stream`, whose time the host brackets.
  Status alignClock(void *stream, ClockOrigin &origin);
  struct Allocation {
    /// The allocation's rank in the order they were made: the leak report
    /// lists the oldest first, whatever their addresses.
    uint64_t serial = 0;
    uint64_t bytes = 0;
    std::string loc;
    bool managed = false;
    bool freed = false;
    std::string freeLoc;
    int device = 0;
  };

  Status loadDriverLocked();
  /// Fails where the backend was not initialized (initializeBackend).
  Status checkLoaded() const;
  /// Fails for a device the machine does not have.
  Status checkDeviceIndex(int device) const;
  Status openDevice(int device);
  /// Makes the context of `device` current on the calling thread.
  Status makeCurrent(int device);
  /// The driver stream and device of a token (the null stream of the
  /// default device for null). Fails for an unknown or released token, and
  /// for an event where a stream is needed.
  Status resolveStream(void *token, void *&stream, int &device);
  Status resolveToken(void *token, Token *&result);
  /// The driver event of an event token; fails for a stream.
  Status resolveEvent(void *event, void *&handle);
  Status resolveTimer(void *timer, Timer *&result);
  /// Records `event` of `timer` on `stream` (null: after all work so far).
  Status recordTimerEvent(Timer &timer, void *&event, void *stream);
  /// Reads the time of `point` once the device reached it.
  Status resolveTimePoint(TimePoint &point);
  /// Whether `token` was issued and has been released since.
  bool isReleased(void *token) const;
  void *addToken(Token token);
  Status takeIdleOrNewStream(int device, void *&stream);
  /// What a dependency on `token` waits for: its live entry, or the
  /// draining entry of a released token whose work may still run; null
  /// for a released token whose work is done. Fails for an id never issued.
  Status resolveDependency(void *token, Token *&entry);
  /// Makes `stream` (of `device`) wait for the work of `dependency` so far.
  Status waitForToken(void *stream, int device, const Token &dependency);
  /// Takes the live token `id` out of the table: done, its stream goes back
  /// to the pool or its event is destroyed; else it keeps draining.
  Status releaseToken(uint64_t id);
  /// Recycles `token`'s stream or destroys its event if its work is done,
  /// and says so in `done`.
  Status retireIfDone(Token &token, bool &done);
  /// Retires the draining tokens whose work is done, once there are many.
  Status sweepDraining();
  /// Waits for the null stream's work when `token` is null.
  Status finishIfSynchronous(void *token, void *stream);
  /// Success, or an error "<name>: <meaning>" of `result`.
  Status check(Result result) const;
  /// Like check, but an error a kernel left behind (an illegal address, a
  /// trap, ...) is reported at the launch that most likely caused it.
  Status checkResult(Result result, const LaunchRecord *launch = nullptr);
  /// Checks `bytes` at `ptr` against the allocation table: fine for memory
  /// the table does not know (host memory, or device memory the program got
  /// elsewhere).
  Status checkRange(const void *ptr, uint64_t bytes, const char *what);

  GpuDriver &driver;
  std::mutex mutex;
  bool loaded = false;
  std::map<int, Device> devices;
  int deviceCount = 0;
  int defaultDevice = 0;
  uint64_t nextTokenId = 1;
  std::unordered_map<uint64_t, Token> tokens;
  /// Released tokens whose work may still run, by id: a stream nothing is
  /// enqueued on any more, or an event. A released id in neither table names
  /// work that is done.
  std::unordered_map<uint64_t, Token> draining;
  size_t sweepDrainingAt = 0;
  std::map<uintptr_t, Allocation> allocations;
  uint64_t nextAllocationSerial = 0;
  std::vector<std::unique_ptr<Module>> modules;
  std::vector<std::unique_ptr<Function>> functions;
  std::map<void *, std::unique_ptr<Timer>> timers;
  std::unordered_map<void *, std::unique_ptr<TimePoint>> timePoints;
  std::map<int, ClockOrigin> clockOrigins;
  /// The largest of the origins' uncertainties so far, kept past finalize.
  std::atomic<int64_t> clockUncertaintyNs{0};
  /// Host ranges that gpu.host_register pinned: begin -> bytes.
  std::map<uintptr_t, uint64_t> registered;
  LaunchRecord lastLaunch;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_GPU_GPURUNTIME_H
