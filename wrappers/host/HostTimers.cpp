//===- HostTimers.cpp - The host backend's timers (mgpuTimer*) ------------===//
//
// See HostTimers.h. A timer handle is the address of its state, checked against
// the table on every call, so a stray handle is an error and not a crash.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostTimers.h"

#include "wrappers/Runtime.h"

#include <atomic>

namespace gpu_runner {

/// One recorded point: the clock value once reached, and the event that
/// completes right after the clock is read (none for the synchronous form,
/// which is reached before the call returns).
struct TimerTable::Point {
  std::atomic<int64_t> ns{0};
  void *event = nullptr;
};

struct TimerTable::State {
  std::shared_ptr<Point> start;
  std::shared_ptr<Point> stop;
};

Status TimerTable::create(void *&timer) {
  auto state = std::make_shared<State>();
  timer = state.get();
  std::lock_guard<std::mutex> lock(mutex);
  timers.emplace(timer, std::move(state));
  return Status();
}

Status TimerTable::lookup(void *timer, std::shared_ptr<State> &state) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = timers.find(timer);
  if (it == timers.end())
    return Status::error("invalid timer handle " + formatPointer(timer) +
                         ": no timer was created with it, or it was "
                         "destroyed");
  state = it->second;
  return Status();
}

Status TimerTable::destroy(void *timer) {
  std::shared_ptr<State> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookup(timer, state));
  {
    std::lock_guard<std::mutex> lock(mutex);
    timers.erase(timer);
  }
  // The points' tasks hold their own references; only the events go now.
  for (const std::shared_ptr<Point> &point : {state->start, state->stop})
    if (point && point->event)
      GPU_RUNNER_RETURN_IF_ERROR(streams.destroyEvent(point->event));
  return Status();
}

Status TimerTable::enqueueClockRead(const std::shared_ptr<Point> &point,
                                    void *stream, const char *loc) {
  GPU_RUNNER_RETURN_IF_ERROR(streams.checkEnqueue(stream));
  return streams.enqueue(
      stream,
      [point]() {
        point->ns.store(getHostClockNs(), std::memory_order_release);
        return Status();
      },
      loc);
}

Status TimerTable::record(const std::shared_ptr<Point> &point, void *stream) {
  GPU_RUNNER_RETURN_IF_ERROR(enqueueClockRead(point, stream, "mgpuTimer"));
  if (!stream)
    return Status(); // read on this thread, after all earlier work
  GPU_RUNNER_RETURN_IF_ERROR(streams.createEvent(point->event));
  return streams.recordEvent(point->event, stream);
}

Status TimerTable::start(void *timer, void *stream) {
  std::shared_ptr<State> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookup(timer, state));
  auto point = std::make_shared<Point>();
  GPU_RUNNER_RETURN_IF_ERROR(record(point, stream));
  for (const std::shared_ptr<Point> &old : {state->start, state->stop})
    if (old && old->event)
      GPU_RUNNER_RETURN_IF_ERROR(streams.destroyEvent(old->event));
  state->start = std::move(point);
  state->stop = nullptr;
  return Status();
}

Status TimerTable::stop(void *timer, void *stream) {
  std::shared_ptr<State> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookup(timer, state));
  if (!state->start)
    return Status::error("the timer was never started: call mgpuTimerStart "
                         "before mgpuTimerStop");
  auto point = std::make_shared<Point>();
  GPU_RUNNER_RETURN_IF_ERROR(record(point, stream));
  if (state->stop && state->stop->event)
    GPU_RUNNER_RETURN_IF_ERROR(streams.destroyEvent(state->stop->event));
  state->stop = std::move(point);
  return Status();
}

Status TimerTable::waitFor(Point &point) {
  if (!point.event)
    return Status();
  return streams.synchronizeEvent(point.event);
}

Status TimerTable::elapsedNs(void *timer, int64_t &nanoseconds) {
  nanoseconds = 0;
  std::shared_ptr<State> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookup(timer, state));
  if (!state->start)
    return Status::error("the timer was never started");
  if (!state->stop)
    return Status::error("the timer was started but not stopped: call "
                         "mgpuTimerStop before reading the elapsed time");
  // Start and stop may be on different streams: wait for both, the stop
  // first. Waiting for the start first would wake this thread in the middle
  // of the timed work, which on a busy machine can cost the stream's worker
  // its core.
  GPU_RUNNER_RETURN_IF_ERROR(waitFor(*state->stop));
  GPU_RUNNER_RETURN_IF_ERROR(waitFor(*state->start));
  nanoseconds = state->stop->ns.load(std::memory_order_acquire) -
                state->start->ns.load(std::memory_order_acquire);
  return Status();
}

Status TimerTable::recordPoint(void *stream, void *&handle) {
  auto point = std::make_shared<Point>();
  GPU_RUNNER_RETURN_IF_ERROR(enqueueClockRead(point, stream, "time point"));
  handle = point.get();
  std::lock_guard<std::mutex> lock(mutex);
  points.emplace(handle, std::move(point));
  return Status();
}

bool TimerTable::takePoint(void *handle, int64_t &nanoseconds) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = points.find(handle);
  if (it == points.end())
    return false;
  int64_t reached = it->second->ns.load(std::memory_order_acquire);
  if (reached == 0)
    return false;
  nanoseconds = reached;
  points.erase(it);
  return true;
}

void TimerTable::reset() {
  std::lock_guard<std::mutex> lock(mutex);
  timers.clear();
}

size_t TimerTable::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return timers.size();
}

} // namespace gpu_runner
