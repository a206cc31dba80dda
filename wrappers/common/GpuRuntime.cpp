//===- GpuRuntime.cpp - The GPU backends' runtime -------------------------===//

#include "wrappers/common/GpuRuntime.h"

#include "wrappers/MgpuAbi.h"
#include "wrappers/common/RectangularCopy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gpu_runner {
namespace {

/// The context each thread has made current, to skip redundant switches.
thread_local void *currentContext = nullptr;

/// A token handle from its id, and back. Ids start high enough that no
/// handle is a small integer a program might pass by mistake.
constexpr uint64_t kFirstTokenId = 0x1000;

uint64_t tokenId(void *token) { return reinterpret_cast<uintptr_t>(token); }

std::string byteCount(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

} // namespace

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

Status GpuRuntime::check(Result result) const {
  if (result == 0)
    return Status();
  return Status::error(driver.describe(result));
}

Status GpuRuntime::loadDriverLocked() {
  if (loaded)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(driver.load());
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.getDeviceCount(deviceCount)));
  if (deviceCount == 0)
    return Status::error(std::string("no ") + driver.vendor() +
                         " device: the driver is installed but sees no GPU");
  loaded = true;
  return Status();
}

Status GpuRuntime::checkDeviceIndex(int device) const {
  if (device < 0 || device >= deviceCount)
    return Status::error(
        std::string("there is no ") + driver.vendor() + " device " +
        std::to_string(device) + ": this machine has " +
        std::to_string(deviceCount) +
        (deviceCount == 1
             ? " device, 0"
             : " devices, 0 to " + std::to_string(deviceCount - 1)));
  return Status();
}

Status GpuRuntime::openDevice(int device) {
  GPU_RUNNER_RETURN_IF_ERROR(checkDeviceIndex(device));
  if (devices.count(device))
    return Status();
  Device entry;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.openDevice(device, entry.info)));
  devices.emplace(device, std::move(entry));
  return Status();
}

Status GpuRuntime::makeCurrent(int device) {
  const GpuDeviceInfo &info = devices.at(device).info;
  if (currentContext && currentContext == info.context)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.makeCurrent(info)));
  currentContext = info.context;
  return Status();
}

Status GpuRuntime::initialize(int device) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(openDevice(device));
  defaultDevice = device;
  return makeCurrent(device);
}

Status GpuRuntime::setDefaultDevice(int32_t device, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(openDevice(device));
  defaultDevice = device;
  return makeCurrent(device);
}

Status GpuRuntime::describeDevices(std::string &text) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  text.clear();
  for (int i = 0; i < deviceCount; ++i) {
    std::string name, chip;
    uint64_t memory = 0;
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.describeDevice(i, name, chip, memory)));
    char line[400];
    std::snprintf(line, sizeof(line), "%d: %s (%s, %.1f GiB)\n", i,
                  name.c_str(), chip.c_str(),
                  static_cast<double>(memory) / (1024.0 * 1024 * 1024));
    text += line;
  }
  return Status();
}

Status GpuRuntime::getDeviceChip(int device, std::string &chip) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  // Asking needs no context: a run that stops before it starts leaves
  // nothing retained.
  GPU_RUNNER_RETURN_IF_ERROR(checkDeviceIndex(device));
  std::string name;
  uint64_t memory = 0;
  return check(driver.describeDevice(device, name, chip, memory));
}

Status GpuRuntime::checkResult(Result result, const LaunchRecord *launch) {
  if (result == 0)
    return Status();
  if (!driver.isKernelFault(result))
    return check(result);
  const LaunchRecord &culprit =
      launch && !launch->kernel.empty() ? *launch : lastLaunch;
  if (culprit.kernel.empty())
    return check(result);
  return Status::errorAt(culprit.loc,
                         "kernel '" + culprit.kernel +
                             "' failed: " + driver.describe(result) +
                             " (noticed at a later synchronization; a kernel "
                             "fault ends the program)");
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

void *GpuRuntime::addToken(Token token) {
  if (nextTokenId < kFirstTokenId)
    nextTokenId = kFirstTokenId;
  uint64_t id = nextTokenId++;
  tokens.emplace(id, std::move(token));
  return reinterpret_cast<void *>(static_cast<uintptr_t>(id));
}

bool GpuRuntime::isReleased(void *token) const {
  uint64_t id = tokenId(token);
  return id >= kFirstTokenId && id < nextTokenId && !tokens.count(id);
}

Status GpuRuntime::resolveToken(void *token, Token *&result) {
  auto it = tokens.find(tokenId(token));
  if (it != tokens.end()) {
    result = &it->second;
    return Status();
  }
  if (isReleased(token))
    return Status::error(
        "the stream of this op's async dependency was already released by a "
        "gpu.wait (or joined into another stream), and cannot take new work");
  return Status::error("invalid stream handle " + formatPointer(token) +
                       ": no stream or event of this program has it");
}

Status GpuRuntime::resolveStream(void *token, void *&stream, int &device) {
  if (!loaded)
    return Status::error(std::string("the ") + driver.vendor() +
                         " backend was not initialized");
  if (!token) {
    stream = driver.getNullStream();
    device = defaultDevice;
    return makeCurrent(device);
  }
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  if (entry->isEvent)
    return Status::error("an event was passed where a stream was expected");
  stream = entry->stream;
  device = entry->device;
  return makeCurrent(device);
}

Status GpuRuntime::finishIfSynchronous(void *token, void *stream) {
  if (token)
    return Status();
  return checkResult(driver.synchronizeStream(stream));
}

Status GpuRuntime::createStream(void *&stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded)
    return Status::error(std::string("the ") + driver.vendor() +
                         " backend was not initialized");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(defaultDevice));
  Token token;
  token.device = defaultDevice;
  GPU_RUNNER_RETURN_IF_ERROR(takeIdleOrNewStream(defaultDevice, token.stream));
  stream = addToken(std::move(token));
  return Status();
}

Status GpuRuntime::takeIdleOrNewStream(int device, void *&stream) {
  std::vector<void *> &idle = devices.at(device).idleStreams;
  if (idle.empty())
    return check(driver.createStream(stream));
  stream = idle.back();
  idle.pop_back();
  return Status();
}

Status GpuRuntime::releaseStream(Token &token) {
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(token.device));
  if (token.isEvent)
    return check(driver.destroyEvent(token.event));
  // A stream with nothing left to run can be handed out again; one still
  // busy is destroyed, which the driver defers until its work is done.
  Result idle = driver.queryStream(token.stream);
  if (idle == 0) {
    devices.at(token.device).idleStreams.push_back(token.stream);
    return Status();
  }
  if (!driver.isNotReady(idle))
    return checkResult(idle, &token.lastLaunch);
  return check(driver.destroyStream(token.stream));
}

Status GpuRuntime::destroyStream(void *token, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  // Releasing a token twice is fine: programs wait on a token twice.
  if (isReleased(token))
    return Status();
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  Token released = std::move(*entry);
  tokens.erase(tokenId(token));
  return releaseStream(released);
}

Status GpuRuntime::synchronizeStream(void *token, const char *) {
  std::unique_lock<std::mutex> lock(mutex);
  // A released stream's work was waited for by the gpu.wait that released
  // it, or by the stream it was joined into.
  if (isReleased(token))
    return Status();
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  bool isEvent = entry->isEvent;
  void *stream = entry->stream;
  void *event = entry->event;
  LaunchRecord launch = entry->lastLaunch;
  // Others may enqueue while this thread waits.
  lock.unlock();
  Result result = isEvent ? driver.synchronizeEvent(event)
                          : driver.synchronizeStream(stream);
  lock.lock();
  return checkResult(result, &launch);
}

Status GpuRuntime::joinStream(void *stream, void *dependency, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (stream == dependency || isReleased(dependency))
    return Status();
  Token *target = nullptr, *source = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, target));
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(dependency, source));
  if (target->isEvent)
    return Status::error("an event was passed where a stream was expected");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(source->device));
  void *event = source->event;
  if (!source->isEvent) {
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.createEvent(event)));
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.recordEvent(event, source->stream)));
  }
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(target->device));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(driver.streamWaitEvent(target->stream, event)));
  if (target->lastLaunch.kernel.empty())
    target->lastLaunch = source->lastLaunch;
  if (!source->isEvent)
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(event)));
  Token released = std::move(*source);
  tokens.erase(tokenId(dependency));
  return releaseStream(released);
}

Status GpuRuntime::recordEventOnStream(void *stream, void *&event,
                                       const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *source = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, source));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(source->device));
  if (source->isEvent)
    return Status::error("an event was passed where a stream was expected");
  Token token;
  token.isEvent = true;
  token.device = source->device;
  token.lastLaunch = source->lastLaunch;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.createEvent(token.event)));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(driver.recordEvent(token.event, source->stream)));
  event = addToken(std::move(token));
  return Status();
}

Status GpuRuntime::streamFromToken(void *token, void *&stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  if (!entry->isEvent) {
    stream = token;
    return Status();
  }
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  Token fresh;
  fresh.device = entry->device;
  fresh.lastLaunch = entry->lastLaunch;
  GPU_RUNNER_RETURN_IF_ERROR(takeIdleOrNewStream(fresh.device, fresh.stream));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(driver.streamWaitEvent(fresh.stream, entry->event)));
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(entry->event)));
  tokens.erase(tokenId(token));
  stream = addToken(std::move(fresh));
  return Status();
}

Status GpuRuntime::createEvent(void *&event, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded)
    return Status::error(std::string("the ") + driver.vendor() +
                         " backend was not initialized");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(defaultDevice));
  Token token;
  token.isEvent = true;
  token.device = defaultDevice;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.createEvent(token.event)));
  event = addToken(std::move(token));
  return Status();
}

Status GpuRuntime::destroyEvent(void *event, const char *loc) {
  return destroyStream(event, loc);
}

Status GpuRuntime::resolveEvent(void *event, void *&handle) {
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(event, entry));
  if (!entry->isEvent)
    return Status::error("a stream was passed where an event was expected");
  handle = entry->event;
  return Status();
}

Status GpuRuntime::recordEvent(void *event, void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *handle = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveEvent(event, handle));
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  return check(driver.recordEvent(handle, driverStream));
}

Status GpuRuntime::synchronizeEvent(void *event, const char *loc) {
  return synchronizeStream(event, loc);
}

Status GpuRuntime::streamWaitEvent(void *stream, void *event, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *handle = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveEvent(event, handle));
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  return check(driver.streamWaitEvent(driverStream, handle));
}

//===----------------------------------------------------------------------===//
// Timers
//===----------------------------------------------------------------------===//

Status GpuRuntime::createTimer(void *&timer, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded)
    return Status::error(std::string("the ") + driver.vendor() +
                         " backend was not initialized");
  auto entry = std::make_unique<Timer>();
  entry->device = defaultDevice;
  timer = entry.get();
  timers.emplace(timer, std::move(entry));
  return Status();
}

Status GpuRuntime::resolveTimer(void *timer, Timer *&result) {
  auto it = timers.find(timer);
  if (it == timers.end())
    return Status::error("invalid timer handle " + formatPointer(timer) +
                         ": no timer was created with it, or it was "
                         "destroyed");
  result = it->second.get();
  return Status();
}

Status GpuRuntime::destroyTimer(void *timer, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Timer *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveTimer(timer, entry));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  for (void *event : {entry->start, entry->stop})
    if (event)
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(event)));
  timers.erase(timer);
  return Status();
}

Status GpuRuntime::recordTimerEvent(Timer &timer, void *&event, void *stream) {
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (event && device != timer.device) {
    // Events belong to a device: a timer moved to another one starts anew.
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(timer.device));
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(event)));
    event = nullptr;
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(device));
  }
  timer.device = device;
  if (!event)
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.createTimingEvent(event)));
  return checkResult(driver.recordEvent(event, driverStream));
}

Status GpuRuntime::startTimer(void *timer, void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Timer *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveTimer(timer, entry));
  GPU_RUNNER_RETURN_IF_ERROR(recordTimerEvent(*entry, entry->start, stream));
  entry->started = true;
  entry->stopped = false;
  return Status();
}

Status GpuRuntime::stopTimer(void *timer, void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Timer *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveTimer(timer, entry));
  if (!entry->started)
    return Status::error("the timer was never started: call mgpuTimerStart "
                         "before mgpuTimerStop");
  GPU_RUNNER_RETURN_IF_ERROR(recordTimerEvent(*entry, entry->stop, stream));
  entry->stopped = true;
  return Status();
}

Status GpuRuntime::getTimerElapsedNs(void *timer, int64_t &nanoseconds,
                                     const char *) {
  nanoseconds = 0;
  std::unique_lock<std::mutex> lock(mutex);
  Timer *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveTimer(timer, entry));
  if (!entry->started)
    return Status::error("the timer was never started");
  if (!entry->stopped)
    return Status::error("the timer was started but not stopped: call "
                         "mgpuTimerStop before reading the elapsed time");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  void *start = entry->start, *stop = entry->stop;
  // Others may enqueue while this thread waits.
  lock.unlock();
  Result stopped = driver.synchronizeEvent(stop);
  Result started = stopped ? stopped : driver.synchronizeEvent(start);
  lock.lock();
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(started));
  float milliseconds = 0;
  GPU_RUNNER_RETURN_IF_ERROR(
      check(driver.getElapsedMilliseconds(milliseconds, start, stop)));
  nanoseconds = static_cast<int64_t>(static_cast<double>(milliseconds) * 1e6 +
                                     (milliseconds < 0 ? -0.5 : 0.5));
  return Status();
}

Status GpuRuntime::synchronize() {
  std::unique_lock<std::mutex> lock(mutex);
  if (!loaded)
    return Status();
  std::vector<int> used;
  for (auto &[index, device] : devices)
    used.push_back(index);
  for (int index : used) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    lock.unlock();
    Result result = driver.synchronizeDevice();
    lock.lock();
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
  }
  return Status();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Status GpuRuntime::allocate(uint64_t bytes, void *stream, bool hostShared,
                            const char *loc, void *&result) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  result = nullptr;
  if (bytes == 0)
    return Status(); // as cudaMalloc: nothing to allocate, a null pointer
  // Allocated at once, even for an asynchronous op, as on the host backend:
  // the memory is usable by anything enqueued later on any stream.
  void *pointer = nullptr;
  Result status = hostShared ? driver.allocateManaged(pointer, bytes)
                             : driver.allocate(pointer, bytes);
  if (driver.isOutOfMemory(status)) {
    uint64_t freeBytes = 0, totalBytes = 0;
    driver.getMemoryInfo(freeBytes, totalBytes);
    return Status::error(driver.describe(status) + ": " + byteCount(bytes) +
                         " were asked for, " + byteCount(freeBytes) +
                         " of the device's " + byteCount(totalBytes) +
                         " are free");
  }
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(status));
  Allocation record;
  record.bytes = bytes;
  record.loc = loc ? loc : "";
  record.managed = hostShared;
  record.device = device;
  allocations[reinterpret_cast<uintptr_t>(pointer)] = std::move(record);
  result = pointer;
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::free(void *ptr, void *stream, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (!ptr)
    return Status(); // a zero-byte allocation
  auto it = allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations.end())
    return Status::error(formatPointer(ptr) +
                         " is not device memory that gpu.alloc returned");
  Allocation &record = it->second;
  if (record.freed)
    return Status::error("double free: the allocation of " +
                         byteCount(record.bytes) + " made by " +
                         describeOp(record.loc) + " was already freed by " +
                         describeOp(record.freeLoc));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(record.device));
  // An asynchronous free happens once its stream's work is done; the
  // driver's free then waits for the device's.
  if (stream)
    GPU_RUNNER_RETURN_IF_ERROR(
        checkResult(driver.synchronizeStream(driverStream)));
  Result status = driver.free(ptr);
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(status));
  record.freed = true;
  record.freeLoc = loc ? loc : "";
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::checkRange(const void *ptr, uint64_t bytes,
                              const char *what) {
  if (bytes == 0)
    return Status();
  std::string side = std::string("the ") + what;
  if (!ptr)
    return Status::error(side + " is a null pointer");
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  auto it = allocations.upper_bound(begin);
  if (it == allocations.begin())
    return Status();
  --it;
  const Allocation &record = it->second;
  uint64_t offset = begin - it->first;
  if (offset >= record.bytes)
    return Status(); // not in an allocation the table knows
  if (record.freed)
    return Status::error("use after free: " + side +
                         " is in the allocation "
                         "of " +
                         byteCount(record.bytes) + " made by " +
                         describeOp(record.loc) + ", which was freed by " +
                         describeOp(record.freeLoc));
  if (bytes > record.bytes - offset)
    return Status::error(
        "out of bounds: " + side + " spans bytes [" + std::to_string(offset) +
        ", " + std::to_string(offset + bytes) + ") of the allocation of " +
        byteCount(record.bytes) + " made by " + describeOp(record.loc) + ": " +
        byteCount(offset + bytes - record.bytes) + " past its end");
  return Status();
}

Status GpuRuntime::memcpy(void *dst, const void *src, uint64_t bytes,
                          void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (bytes == 0)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(checkRange(dst, bytes, "destination"));
  GPU_RUNNER_RETURN_IF_ERROR(checkRange(src, bytes, "source"));
  RectangularCopy copy;
  copy.dst = static_cast<char *>(dst);
  copy.src = static_cast<const char *>(src);
  copy.widthBytes = bytes;
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(driver.copy(copy, driverStream)));
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::memcpyStrided(int64_t rank, void *dstDescriptor,
                                 void *srcDescriptor, int64_t elementSizeBytes,
                                 void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  StridedCopyPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(planStridedCopy(rank, dstDescriptor, srcDescriptor,
                                             elementSizeBytes, plan));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.dstRange.begin, plan.dstRange.bytes, "destination"));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.srcRange.begin, plan.srcRange.bytes, "source"));
  Status status;
  forEachRectangularCopy(plan, [&](const RectangularCopy &copy) {
    status = checkResult(driver.copy(copy, driverStream));
    return status.ok();
  });
  GPU_RUNNER_RETURN_IF_ERROR(status);
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                          uint64_t count, void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (count == 0)
    return Status();
  if (count > UINT64_MAX / static_cast<uint64_t>(elementSizeBytes))
    return Status::error("the memset of " + std::to_string(count) +
                         " elements overflows 64-bit byte counts");
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(dst, count * elementSizeBytes, "destination"));
  if (reinterpret_cast<uintptr_t>(dst) % elementSizeBytes != 0)
    return Status::error("the destination " + formatPointer(dst) +
                         " is not aligned to its " +
                         byteCount(elementSizeBytes) + " elements");
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(
      driver.fill(dst, value, elementSizeBytes, count, driverStream)));
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::memsetStrided(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes, uint64_t value,
                                 void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  StridedFillPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(
      planStridedFill(rank, descriptor, elementSizeBytes, plan));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.range.begin, plan.range.bytes, "destination"));
  if (plan.runElements == 0)
    return finishIfSynchronous(stream, driverStream);
  // The innermost loop becomes the rows of a 2-D memset where the driver
  // has one (elements of up to 4 bytes) and the pitch fits.
  size_t loops = plan.sizes.size();
  uint64_t runBytes = plan.runElements * elementSizeBytes;
  bool rows = elementSizeBytes <= 4 && loops >= 1 &&
              plan.strides[loops - 1] >= static_cast<int64_t>(runBytes) &&
              plan.strides[loops - 1] <= kMaxCopyPitch;
  size_t outer = rows ? loops - 1 : loops;
  std::vector<int64_t> index(outer, 0);
  while (true) {
    char *dst = plan.dst;
    for (size_t i = 0; i < outer; ++i)
      dst += index[i] * plan.strides[i];
    Result result =
        rows ? driver.fillRows(
                   dst, static_cast<uint64_t>(plan.strides[loops - 1]), value,
                   elementSizeBytes, plan.runElements,
                   static_cast<uint64_t>(plan.sizes[loops - 1]), driverStream)
             : driver.fill(dst, value, elementSizeBytes, plan.runElements,
                           driverStream);
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
    size_t i = outer;
    while (i > 0 && ++index[i - 1] == plan.sizes[i - 1])
      index[--i] = 0;
    if (i == 0)
      break;
  }
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::hostRegister(void *ptr, uint64_t bytes, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  if (bytes == 0)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.hostRegister(ptr, bytes)));
  registered[reinterpret_cast<uintptr_t>(ptr)] = bytes;
  return Status();
}

Status GpuRuntime::hostUnregister(void *ptr, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  auto it = registered.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == registered.end())
    return Status::error(formatPointer(ptr) +
                         " is not the start of memory that gpu.host_register "
                         "registered");
  registered.erase(it);
  return check(driver.hostUnregister(ptr));
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

Status GpuRuntime::loadModule(const void *data, uint64_t bytes, int32_t format,
                              int optLevel, void *&module, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  if (!data || bytes == 0)
    return Status::error("the GPU binary is empty");
  auto entry = std::make_unique<Module>();
  entry->device = device;
  if (format != kDeviceObjectAssembly && format != kDeviceObjectBinary)
    return Status::error("unknown GPU object format " + std::to_string(format));
  std::string log;
  Result result = driver.loadModule(entry->handle, data, bytes, format,
                                    std::min(std::max(optLevel, 0), 4), log);
  if (result != 0 && driver.isWrongBinary(result))
    return Status::error(driver.describe(result) +
                         ": the kernels were compiled for another chip; run "
                         "without --gpu-chip to compile for this device");
  if (result != 0 && !log.empty())
    return Status::error(driver.describe(result) +
                         ": the driver could not compile the kernels:\n" + log);
  GPU_RUNNER_RETURN_IF_ERROR(check(result));
  module = entry.get();
  modules.push_back(std::move(entry));
  return Status();
}

Status GpuRuntime::unloadModule(void *module, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module was not loaded, or is already unloaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  Result result = driver.unloadModule((*it)->handle);
  functions.erase(std::remove_if(functions.begin(), functions.end(),
                                 [&](const auto &function) {
                                   return function->module == it->get();
                                 }),
                  functions.end());
  modules.erase(it);
  return checkResult(result);
}

Status GpuRuntime::getFunction(void *module, const char *name, void *&function,
                               const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module of kernel '" +
                         std::string(name ? name : "") + "' is not loaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  auto entry = std::make_unique<Function>();
  entry->name = name ? name : "";
  entry->module = it->get();
  entry->device = (*it)->device;
  Result result = driver.getFunction(entry->handle, (*it)->handle, name);
  if (result != 0 && driver.isNotFound(result))
    return Status::error("the GPU binary has no kernel '" + entry->name + "'");
  GPU_RUNNER_RETURN_IF_ERROR(check(result));
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.getFunctionLimits(
      entry->handle, entry->staticSharedBytes, entry->maxThreads)));
  function = entry.get();
  functions.push_back(std::move(entry));
  return Status();
}

Status GpuRuntime::launch(void *function, const GpuLaunch &launch, void *stream,
                          void **params, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  auto *entry = static_cast<Function *>(function);
  if (!entry || std::none_of(functions.begin(), functions.end(),
                             [&](const auto &f) { return f.get() == entry; }))
    return Status::error("the kernel's module is not loaded");
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  std::string kernel = "kernel '" + entry->name + "': ";
  if (device != entry->device)
    return Status::error(
        kernel + "it was loaded on device " + std::to_string(entry->device) +
        " but launched on a stream of device " + std::to_string(device));
  // The checks and their words are the host backend's
  // (validateKernelLaunch), with this device's limits.
  const GpuDeviceInfo &limits = devices.at(device).info;
  static const char *const axes[] = {"x", "y", "z"};
  for (const auto &[sizes, what] :
       {std::pair(launch.grid, "grid"), std::pair(launch.block, "block")})
    for (int i = 0; i < 3; ++i)
      if (sizes[i] < 1)
        return Status::error(kernel + what + " size " +
                             std::to_string(sizes[i]) + " in " + axes[i] +
                             ": every dimension of the grid and of a block "
                             "must be at least 1");
  int64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (launch.block[i] > limits.maxBlock[i])
      return Status::error(kernel + "block size " +
                           std::to_string(launch.block[i]) + " in " + axes[i] +
                           ": a block has at most " +
                           std::to_string(limits.maxBlock[i]) + " threads in " +
                           axes[i] + " on this device");
    threads *= launch.block[i];
  }
  if (threads > entry->maxThreads)
    return Status::error(
        kernel + "a block of " + std::to_string(launch.block[0]) + " x " +
        std::to_string(launch.block[1]) + " x " +
        std::to_string(launch.block[2]) + " = " + std::to_string(threads) +
        " threads: a block of this kernel has at most " +
        std::to_string(entry->maxThreads) + " threads on this device");
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] > limits.maxGrid[i])
      return Status::error(kernel + "grid size " +
                           std::to_string(launch.grid[i]) + " in " + axes[i] +
                           ": a grid has at most " +
                           std::to_string(limits.maxGrid[i]) + " blocks in " +
                           axes[i] + " on this device");
  int64_t dynamicShared = launch.sharedMemoryBytes;
  if (dynamicShared < 0)
    return Status::error(kernel + "negative dynamic shared memory size " +
                         std::to_string(dynamicShared));
  if (dynamicShared > entry->dynamicSharedLimit) {
    if (entry->staticSharedBytes + dynamicShared > limits.maxSharedPerBlock)
      return Status::error(
          kernel + std::to_string(entry->staticSharedBytes) +
          " bytes of static and " + std::to_string(dynamicShared) +
          " bytes of dynamic workgroup memory: a block has at most " +
          std::to_string(limits.maxSharedPerBlock) + " bytes on this device");
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.setMaxDynamicSharedBytes(entry->handle, dynamicShared)));
    entry->dynamicSharedLimit = dynamicShared;
  }

  GpuLaunchConfig config;
  for (int i = 0; i < 3; ++i) {
    config.grid[i] = static_cast<unsigned>(launch.grid[i]);
    config.block[i] = static_cast<unsigned>(launch.block[i]);
    if (!launch.useCluster)
      continue;
    if (launch.cluster[i] <= 0 || launch.grid[i] % launch.cluster[i] != 0)
      return Status::error(kernel + "grid size " +
                           std::to_string(launch.grid[i]) + " in " + axes[i] +
                           ": not a multiple of the cluster size " +
                           std::to_string(launch.cluster[i]));
    config.cluster[i] = static_cast<unsigned>(launch.cluster[i]);
  }
  config.useCluster = launch.useCluster;
  config.dynamicSharedBytes = static_cast<unsigned>(dynamicShared);
  Result result = driver.launch(entry->handle, config, driverStream, params);
  if (result != 0 && !driver.isKernelFault(result))
    return Status::error(kernel + driver.describe(result));
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
  LaunchRecord record{entry->name, loc ? loc : ""};
  lastLaunch = record;
  if (stream) {
    Token *token = nullptr;
    GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, token));
    token->lastLaunch = std::move(record);
    return Status();
  }
  return checkResult(driver.synchronizeStream(driverStream), &lastLaunch);
}

//===----------------------------------------------------------------------===//
// Exit
//===----------------------------------------------------------------------===//

Status GpuRuntime::finalize(std::vector<Warning> &leaks) {
  std::lock_guard<std::mutex> lock(mutex);
  leaks.clear();
  if (!loaded)
    return Status();
  for (auto &[index, device] : devices) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(driver.synchronizeDevice()));
  }
  for (auto &[base, record] : allocations) {
    if (record.freed)
      continue;
    leaks.push_back(Warning{record.loc, std::to_string(record.bytes) +
                                            " bytes of device memory "
                                            "allocated here were never "
                                            "freed"});
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(record.device));
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.free(reinterpret_cast<void *>(base))));
  }
  allocations.clear();
  for (auto &[id, token] : tokens) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(token.device));
    if (token.isEvent)
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(token.event)));
    else
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyStream(token.stream)));
  }
  tokens.clear();
  for (auto &[handle, timer] : timers) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(timer->device));
    for (void *event : {timer->start, timer->stop})
      if (event)
        GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(event)));
  }
  timers.clear();
  for (auto &module : modules) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(module->device));
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.unloadModule(module->handle)));
  }
  modules.clear();
  functions.clear();
  for (auto &[begin, bytes] : registered)
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.hostUnregister(reinterpret_cast<void *>(begin))));
  registered.clear();
  for (auto &[index, device] : devices) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    for (void *stream : device.idleStreams)
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyStream(stream)));
    device.idleStreams.clear();
  }
  for (auto &[index, device] : devices)
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.closeDevice(device.info)));
  devices.clear();
  currentContext = nullptr;
  return Status();
}

} // namespace gpu_runner
