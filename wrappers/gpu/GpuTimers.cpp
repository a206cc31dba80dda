//===- GpuTimers.cpp - GPU runtime: timers --------------------------------===//
//
// The runtime's timers (mgpuTimer*): two events with timing, recorded on a
// token's stream; see GpuRuntime.h.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"

namespace gpu_runner {

Status GpuRuntime::createTimer(void *&timer, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(checkLoaded());
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

Status GpuRuntime::recordTimePoint(void *stream, void *&point) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  ClockOrigin &origin = clockOrigins[device];
  if (!origin.event)
    GPU_RUNNER_RETURN_IF_ERROR(alignClock(driverStream, origin));
  auto entry = std::make_unique<TimePoint>();
  entry->device = device;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.createTimingEvent(entry->event)));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkResult(driver.recordEvent(entry->event, driverStream)));
  point = entry.get();
  timePoints.emplace(point, std::move(entry));
  return Status();
}

Status GpuRuntime::alignClock(void *stream, ClockOrigin &origin) {
  // The device reaches an event between the host's reading of its clock
  // before recording it and its reading after waiting for it. Of a few
  // tries, the narrowest such span is kept and its middle taken: a try in
  // which the host thread was descheduled is wide, and left out.
  constexpr int kTries = 5;
  for (int attempt = 0; attempt < kTries; ++attempt) {
    void *event = nullptr;
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.createTimingEvent(event)));
    int64_t before = getHostClockNs();
    Result result = driver.recordEvent(event, stream);
    if (!result)
      result = driver.synchronizeEvent(event);
    int64_t span = getHostClockNs() - before;
    if (result) {
      (void)driver.destroyEvent(event);
      return checkResult(result);
    }
    if (origin.event && span >= 2 * origin.uncertaintyNs) {
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(event)));
      continue;
    }
    if (origin.event)
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(origin.event)));
    origin.event = event;
    origin.hostNs = before + span / 2;
    origin.uncertaintyNs = (span + 1) / 2;
  }
  if (origin.uncertaintyNs > clockUncertaintyNs.load())
    clockUncertaintyNs.store(origin.uncertaintyNs);
  return Status();
}

int64_t GpuRuntime::getTimePointUncertaintyNs() const {
  return clockUncertaintyNs.load();
}

Status GpuRuntime::resolveTimePoint(TimePoint &point) {
  if (point.ns || !point.event)
    return Status();
  auto origin = clockOrigins.find(point.device);
  if (origin == clockOrigins.end())
    return Status::error("no clock origin for the device's time point");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(point.device));
  Result reached = driver.queryEvent(point.event);
  if (driver.isNotReady(reached))
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(check(reached));
  float milliseconds = 0;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.getElapsedMilliseconds(
      milliseconds, origin->second.event, point.event)));
  point.ns = origin->second.hostNs +
             static_cast<int64_t>(static_cast<double>(milliseconds) * 1e6);
  Result destroyed = driver.destroyEvent(point.event);
  point.event = nullptr;
  return check(destroyed);
}

bool GpuRuntime::takeTimePoint(void *point, int64_t &nanoseconds) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = timePoints.find(point);
  if (it == timePoints.end())
    return false;
  // An error here costs the record a time, never the program its run.
  if (!resolveTimePoint(*it->second).ok() || !it->second->ns)
    return false;
  nanoseconds = *it->second->ns;
  timePoints.erase(it);
  return true;
}

} // namespace gpu_runner
