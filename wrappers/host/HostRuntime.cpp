//===- HostRuntime.cpp - The host backend's runtime, one method per op ----===//
//
// See HostRuntime.h. Each op validates its stream, reads and checks everything
// it will touch, captures what it needs by value, and only then enqueues:
// nothing a task uses may point into the caller's stack frame.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostRuntime.h"

#include "wrappers/common/CheckReports.h"
#include "wrappers/common/FaultHandler.h"
#include "wrappers/common/StridedCopy.h"
#include "wrappers/host/HostCopies.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>

namespace gpu_runner {

namespace {

/// Kernel arguments are copied in chunks of this type, which gives them the
/// alignment the lowering expects.
struct alignas(16) ArgumentChunk {
  unsigned char bytes[16];
};

using Runs = std::vector<StreamHazards::Range>;

/// `runs` sorted, with those that overlap or touch merged.
Runs mergeRuns(Runs runs) {
  std::sort(runs.begin(), runs.end(),
            [](const StreamHazards::Range &a, const StreamHazards::Range &b) {
              return a.begin < b.begin;
            });
  Runs merged;
  for (const StreamHazards::Range &run : runs)
    if (!merged.empty() && run.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, run.end);
    else
      merged.push_back(run);
  return merged;
}

/// For racecheck, the bytes that one side of a strided copy touches; none
/// past StreamHazards::kMaxRuns runs.
Runs copyRuns(const StridedCopyPlan &plan, bool dstSide) {
  if (plan.runCount() > StreamHazards::kMaxRuns)
    return {};
  Runs runs;
  forEachCopyRun(plan, [&](const char *dst, const char *src, uint64_t bytes) {
    auto begin = reinterpret_cast<uintptr_t>(dstSide ? dst : src);
    runs.push_back({begin, begin + bytes});
  });
  return mergeRuns(std::move(runs));
}

/// The same for a strided fill.
Runs fillRuns(const StridedFillPlan &plan) {
  if (plan.runCount() > StreamHazards::kMaxRuns)
    return {};
  Runs runs;
  forEachFillRun(plan, [&](const char *dst, uint64_t bytes) {
    auto begin = reinterpret_cast<uintptr_t>(dst);
    runs.push_back({begin, begin + bytes});
  });
  return mergeRuns(std::move(runs));
}

/// What a launch's task needs once the launching call has returned.
struct PendingLaunch {
  KernelLaunch launch;
  std::unique_ptr<ArgumentChunk[]> args;
};

} // namespace

HostRuntime::HostRuntime(DeviceMemory::Options memoryOptions)
    : deviceMemory(memoryOptions) {}

Status HostRuntime::createStream(void *&stream, const char *loc) {
  return streamManager.createStream(stream, loc);
}

// A token is a stream or, after an async.yield, an event, and stays a
// valid dependency once released: StreamManager's token functions.

Status HostRuntime::destroyStream(void *token, const char *) {
  return streamManager.releaseToken(token);
}

Status HostRuntime::synchronizeStream(void *token, const char *) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.synchronizeToken(token));
  streamHazards.observe(token);
  return Status();
}

Status HostRuntime::joinStream(void *stream, void *dependency, const char *) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.joinToken(stream, dependency));
  if (stream)
    streamHazards.cover(dependency, stream);
  else if (dependency)
    streamHazards.observe(dependency);
  return Status();
}

Status HostRuntime::recordEventOnStream(void *stream, void *&event,
                                        const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.eventFromToken(stream, event, loc));
  streamHazards.cover(stream, event);
  return Status();
}

Status HostRuntime::streamFromToken(void *token, void *&stream,
                                    const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.streamFromToken(token, stream, loc));
  if (token)
    streamHazards.cover(token, stream);
  return Status();
}

Status HostRuntime::createEvent(void *&event, const char *loc) {
  return streamManager.createEvent(event, loc);
}

Status HostRuntime::destroyEvent(void *event, const char *) {
  return streamManager.destroyEvent(event);
}

Status HostRuntime::recordEvent(void *event, void *stream, const char *) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.recordEvent(event, stream));
  streamHazards.cover(stream, event);
  return Status();
}

Status HostRuntime::synchronizeEvent(void *event, const char *) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.synchronizeEvent(event));
  streamHazards.observe(event);
  return Status();
}

Status HostRuntime::streamWaitEvent(void *stream, void *event, const char *) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.waitEvent(stream, event));
  if (stream)
    streamHazards.cover(event, stream);
  else
    streamHazards.observe(event);
  return Status();
}

void HostRuntime::noteStreamAccess(void *stream,
                                   std::vector<StreamHazards::Range> runs,
                                   bool write, const char *loc) {
  // An op on the null stream waits for every stream first.
  if (!stream) {
    streamHazards.observe(nullptr);
    return;
  }
  StreamHazards::Conflict other =
      streamHazards.noteAccess(stream, std::move(runs), write, loc);
  if (other)
    reportCheckError(
        Check::Racecheck, loc,
        std::string(write ? "it writes" : "it reads") + " memory that " +
            describeOp(other.loc) + (other.write ? " writes" : " reads") +
            " on another stream, and no token or wait orders the two: on a "
            "GPU, streams run at once and in any order (make one op depend "
            "on the other's token, or wait for it first)",
        other.loc);
}

void HostRuntime::noteStreamAccess(void *stream, const void *begin,
                                   uint64_t bytes, bool write,
                                   const char *loc) {
  if (!stream || bytes == 0 || !isCheckEnabled(Check::Racecheck)) {
    noteStreamAccess(stream, Runs{}, write, loc);
    return;
  }
  auto first = reinterpret_cast<uintptr_t>(begin);
  noteStreamAccess(stream, Runs{{first, first + bytes}}, write, loc);
}

Status HostRuntime::allocate(uint64_t bytes, void *stream, bool hostShared,
                             const char *loc, void *&result) {
  result = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
  return deviceMemory.allocate(bytes, hostShared, loc, result);
}

Status HostRuntime::free(void *ptr, void *stream, const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
  DeviceMemory::PendingRelease release;
  GPU_RUNNER_RETURN_IF_ERROR(deviceMemory.markFreed(ptr, loc, release));
  return streamManager.enqueue(
      stream,
      [this, release]() {
        deviceMemory.release(release);
        return Status();
      },
      loc);
}

Status HostRuntime::memcpy(void *dst, const void *src, uint64_t bytes,
                           void *stream, const char *loc) {
  // The stream is checked first, as for every op, but only where a range
  // fails: otherwise enqueue checks it, and the copy takes the manager's
  // lock once.
  if (Status checked = deviceMemory.checkCopy(src, bytes, dst, bytes);
      !checked.ok()) {
    GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
    return checked;
  }
  noteStreamAccess(stream, src, bytes, /*write=*/false, loc);
  noteStreamAccess(stream, dst, bytes, /*write=*/true, loc);
  // initcheck looks at what the copy reads when it runs, in the order of
  // the streams, as the kernels' stores mark what they write.
  bool initcheck = isCheckEnabled(Check::Initcheck);
  return streamManager.enqueue(
      stream,
      [this, dst, src, bytes, loc, initcheck]() {
        if (initcheck)
          checkCopiedBytes(static_cast<char *>(dst),
                           static_cast<const char *>(src), bytes, loc);
        copyBytes(dst, src, bytes, &kernelExecutor);
        return Status();
      },
      loc);
}

Status HostRuntime::memcpyStrided(int64_t rank, void *dstDescriptor,
                                  void *srcDescriptor, int64_t elementSizeBytes,
                                  void *stream, const char *loc) {
  // As in memcpy: the stream's error comes first, but the stream is looked
  // at here only when the plan or a range fails; enqueue checks it.
  StridedCopyPlan plan;
  Status checked = planStridedCopy(rank, dstDescriptor, srcDescriptor,
                                   elementSizeBytes, plan);
  if (checked.ok())
    checked = deviceMemory.checkCopy(plan.srcRange.begin, plan.srcRange.bytes,
                                     plan.dstRange.begin, plan.dstRange.bytes);
  if (!checked.ok()) {
    GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
    return checked;
  }
  if (isCheckEnabled(Check::Racecheck)) {
    noteStreamAccess(stream, copyRuns(plan, /*dstSide=*/false),
                     /*write=*/false, loc);
    noteStreamAccess(stream, copyRuns(plan, /*dstSide=*/true), /*write=*/true,
                     loc);
  }
  if (isCheckEnabled(Check::Initcheck))
    return streamManager.enqueue(
        stream,
        [this, plan = std::move(plan), loc]() {
          forEachCopyRun(plan, [&](char *dst, const char *src, uint64_t bytes) {
            checkCopiedBytes(dst, src, bytes, loc);
          });
          runStridedCopy(plan, &kernelExecutor);
          return Status();
        },
        loc);
  if (plan.sizes.empty()) // one run, what runStridedCopy would copy
    return streamManager.enqueue(
        stream,
        [this, dst = plan.dst, src = plan.src, bytes = plan.runBytes]() {
          copyBytes(dst, src, bytes, &kernelExecutor);
          return Status();
        },
        loc);
  return streamManager.enqueue(
      stream,
      [plan = std::move(plan)]() {
        runStridedCopy(plan);
        return Status();
      },
      loc);
}

void HostRuntime::checkCopiedBytes(char *dst, const char *src, uint64_t bytes,
                                   const char *loc) {
  std::string unwritten = deviceMemory.describeUnwritten(src, bytes);
  if (!unwritten.empty())
    reportCheckError(
        Check::Initcheck, loc,
        "the copy reads device memory that nothing wrote: " + unwritten +
            " (no gpu.memset, gpu.memcpy or kernel store since "
            "gpu.alloc; a GPU's new memory holds whatever was "
            "there)",
        "copy");
  deviceMemory.markWritten(dst, bytes);
}

Status HostRuntime::memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                           uint64_t count, void *stream, const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
  GPU_RUNNER_RETURN_IF_ERROR(checkFillElementSize(elementSizeBytes));
  uint64_t bytes;
  if (__builtin_mul_overflow(count, static_cast<uint64_t>(elementSizeBytes),
                             &bytes))
    return Status::error(std::to_string(count) + " elements of " +
                         std::to_string(elementSizeBytes) +
                         " bytes are more bytes than 64 bits can count");
  GPU_RUNNER_RETURN_IF_ERROR(
      deviceMemory.checkRange(dst, bytes, "destination"));
  noteStreamAccess(stream, dst, bytes, /*write=*/true, loc);
  bool initcheck = isCheckEnabled(Check::Initcheck);
  return streamManager.enqueue(
      stream,
      [this, dst, value, elementSizeBytes, count, bytes, initcheck]() {
        if (initcheck)
          deviceMemory.markWritten(dst, bytes);
        fillElements(dst, value, elementSizeBytes, count, &kernelExecutor);
        return Status();
      },
      loc);
}

Status HostRuntime::memsetStrided(int64_t rank, void *descriptor,
                                  int64_t elementSizeBytes, uint64_t value,
                                  void *stream, const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
  StridedFillPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(
      planStridedFill(rank, descriptor, elementSizeBytes, plan));
  GPU_RUNNER_RETURN_IF_ERROR(deviceMemory.checkRange(
      plan.range.begin, plan.range.bytes, "destination"));
  if (isCheckEnabled(Check::Racecheck))
    noteStreamAccess(stream, fillRuns(plan), /*write=*/true, loc);
  bool initcheck = isCheckEnabled(Check::Initcheck);
  return streamManager.enqueue(
      stream,
      [this, plan = std::move(plan), value, initcheck]() {
        if (initcheck)
          forEachFillRun(plan, [&](char *dst, uint64_t bytes) {
            deviceMemory.markWritten(dst, bytes);
          });
        runStridedFill(plan, value, &kernelExecutor);
        return Status();
      },
      loc);
}

Status HostRuntime::hostRegister(void *ptr, uint64_t bytes, const char *loc) {
  return hostRegistry.registerRange(ptr, bytes, loc, deviceMemory);
}

Status HostRuntime::hostUnregister(void *ptr, const char *) {
  return hostRegistry.unregisterRange(ptr);
}

Status HostRuntime::getDevicePointer(void *host, void *&device, const char *) {
  // The device's memory is the host's: registered memory is at its own
  // address, as on a GPU with unified addressing.
  if (!hostRegistry.contains(host, 1))
    return Status::error(describeUnregisteredPointer(host));
  device = host;
  return Status();
}

Status HostRuntime::createTimer(void *&timer, const char *) {
  return timerTable.create(timer);
}

Status HostRuntime::destroyTimer(void *timer, const char *) {
  return timerTable.destroy(timer);
}

Status HostRuntime::startTimer(void *timer, void *stream, const char *) {
  return timerTable.start(timer, stream);
}

Status HostRuntime::stopTimer(void *timer, void *stream, const char *) {
  return timerTable.stop(timer, stream);
}

Status HostRuntime::getTimerElapsedNs(void *timer, int64_t &nanoseconds,
                                      const char *) {
  return timerTable.elapsedNs(timer, nanoseconds);
}

Status HostRuntime::recordTimePoint(void *stream, void *&point) {
  return timerTable.recordPoint(stream, point);
}

bool HostRuntime::takeTimePoint(void *point, int64_t &nanoseconds) {
  return timerTable.takePoint(point, nanoseconds);
}

Status HostRuntime::setDefaultDevice(int32_t device, const char *) {
  if (device == 0)
    return Status();
  return Status::error("the host backend has one device, 0: there is no "
                       "device " +
                       std::to_string(device));
}

Status HostRuntime::launchKernel(const KernelLaunch &launch, const void *args,
                                 int64_t argsBytes, void *stream,
                                 const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streamManager.checkEnqueue(stream));
  GPU_RUNNER_RETURN_IF_ERROR(validateKernelLaunch(launch, argsBytes));
  // What a kernel touches is not known here; a synchronous launch waits for
  // every stream first.
  if (!stream)
    streamHazards.observe(nullptr);
  if (argsBytes > 0 && !args)
    return Status::error("kernel '" + launch.name +
                         "': the kernel's arguments are a null pointer");
  // The caller's buffer is on its stack: an asynchronous launch runs after
  // it is gone.
  auto pending = std::make_shared<PendingLaunch>();
  pending->launch = launch;
  pending->launch.loc = loc;
  size_t bytes = static_cast<size_t>(argsBytes);
  // Not std::make_unique, which would zero what the copy below writes.
  // NOLINTNEXTLINE(modernize-make-unique)
  pending->args.reset(new ArgumentChunk[std::max<size_t>(
      1, (bytes + sizeof(ArgumentChunk) - 1) / sizeof(ArgumentChunk))]);
  if (bytes > 0)
    std::memcpy(pending->args.get(), args, bytes);
  return streamManager.enqueue(
      stream,
      [this, pending, loc]() {
        kernelExecutor.runGrid(pending->launch, pending->args.get(), loc);
        return Status();
      },
      loc);
}

Status HostRuntime::gpuBinariesNotSupported() {
  return Status::error(
      "the host backend cannot load or launch GPU binaries: it runs the "
      "kernels that gpu-runner's host lowering compiles into the program");
}

Status HostRuntime::loadModule(const void *, uint64_t, int32_t, int, void *&,
                               const char *) {
  return gpuBinariesNotSupported();
}

Status HostRuntime::attachKernelIR(void *, const void *, uint64_t,
                                   const char *) {
  return gpuBinariesNotSupported();
}

Status HostRuntime::unloadModule(void *, const char *) {
  return gpuBinariesNotSupported();
}

Status HostRuntime::getFunction(void *, const char *, void *&, const char *) {
  return gpuBinariesNotSupported();
}

Status HostRuntime::launch(void *, const GpuLaunch &, void *, void **,
                           const char *) {
  return gpuBinariesNotSupported();
}

Status HostRuntime::describeDevices(std::string &text) {
  text = "0: the host CPU (" +
         std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
         " hardware threads)\n";
  return Status();
}

Status HostRuntime::getDeviceChip(int device, std::string &chip) {
  chip.clear();
  return setDefaultDevice(device, nullptr);
}

Status HostRuntime::synchronize() {
  return synchronizeStream(nullptr, nullptr);
}

Status HostRuntime::initialize(int device) {
  streamHazards.reset(isCheckEnabled(Check::Racecheck));
  installFaultHandler();
  return setDefaultDevice(device, nullptr);
}

Status HostRuntime::finalize(std::vector<Warning> &leaks) {
  leaks.clear();
  // What the program leaves to shutdown to release (leakcheck only).
  std::vector<StreamManager::Unreleased> handles =
      streamManager.unreleasedHandles();
  Status drained = streamManager.shutdown();
  kernelExecutor.shutdown();
  timerTable.reset();
  GPU_RUNNER_RETURN_IF_ERROR(drained);
  LeakTally tally;
  for (const DeviceMemory::Leak &leak : deviceMemory.liveAllocations())
    tally.add(leak.loc, leak.bytes);
  for (LeakTally::Line &line : tally.lines())
    leaks.push_back(Warning{std::move(line.loc), std::move(line.message)});
  for (StreamManager::Unreleased &handle : handles)
    leaks.push_back(
        Warning{std::move(handle.loc),
                handle.isEvent
                    ? "an event made here was never destroyed or waited for"
                    : "a stream made here was never released: no gpu.wait took "
                      "the last token of the async ops that ran on it"});
  deviceMemory.reset();
  hostRegistry.reset();
  return Status();
}

} // namespace gpu_runner
