//===- HostTimers.h - The host backend's timers (mgpuTimer*) --------------===//
//
// A timer's start and stop points are tasks on a stream that read a steady
// clock when the stream's worker reaches them, so a timed region covers the
// work the stream ran, not the time the program took to enqueue it. On the
// null stream a point waits for all work enqueued so far and reads the clock
// on the calling thread, as every synchronous op runs. See MgpuAbi.def for
// the contract every backend implements.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTTIMERS_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTTIMERS_H

#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/HostStreams.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace gpu_runner {

class TimerTable {
public:
  explicit TimerTable(StreamManager &streams) : streams(streams) {}
  TimerTable(const TimerTable &) = delete;
  TimerTable &operator=(const TimerTable &) = delete;

  Status create(void *&timer);
  Status destroy(void *timer);
  /// Records the start point on `stream` (null: the synchronous form) and
  /// forgets the previous start and stop.
  Status start(void *timer, void *stream);
  /// Records the stop point on `stream`; the timer must have been started.
  Status stop(void *timer, void *stream);
  /// Blocks until both points are reached; the nanoseconds between them.
  Status elapsedNs(void *timer, int64_t &nanoseconds);

  /// Records a point of the run's record on `stream` (Runtime::
  /// recordTimePoint); `handle` names it.
  Status recordPoint(void *stream, void *&handle);
  /// The clock the stream read at the point `handle`, and forgets it; false
  /// while the stream has not reached it.
  bool takePoint(void *handle, int64_t &nanoseconds);
  /// Forgets every timer (the runtime's finalize); the record's points stay.
  void reset();
  size_t size() const;

private:
  struct Point;
  struct State;

  Status lookup(void *timer, std::shared_ptr<State> &state) const;
  /// Enqueues a task that reads the clock into `point` on `stream` (null:
  /// after all work so far, on this thread), for the op at `loc`.
  Status enqueueClockRead(const std::shared_ptr<Point> &point, void *stream,
                          const char *loc);
  /// Enqueues the clock read of `point` on `stream` and records an event
  /// right after it, so that waiting for the point is waiting for the event.
  Status record(const std::shared_ptr<Point> &point, void *stream);
  Status waitFor(Point &point);

  StreamManager &streams;
  mutable std::mutex mutex;
  std::unordered_map<void *, std::shared_ptr<State>> timers;
  std::unordered_map<void *, std::shared_ptr<Point>> points;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTTIMERS_H
