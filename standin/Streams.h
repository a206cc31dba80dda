//===- Streams.h - Streams with a worker thread each, and events ----------===//
//
// A stream is an in-order queue run by a thread of its own, so that work the
// driver calls asynchronous really is: a program that reads a result before
// waiting for it sees the result missing, as on a GPU.
//
// A task may wait for others first (fences): the work an event captured, or,
// for the implicit synchronization of the legacy default stream, the work
// other streams had queued when the task was submitted. A fence always
// names work submitted before the task that waits for it, so waits can never
// form a cycle.
//
// Every stream of a Driver shares one Scheduler: its mutex guards all queue
// and event state, and its condition variable wakes everyone who waits.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_STREAMS_H
#define GPU_RUNNER_STANDIN_STREAMS_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpu_runner {
namespace standin {

struct Scheduler {
  std::mutex mutex;
  std::condition_variable changed;
};

class Stream;

/// The work a stream had been given up to `sequence`; null when empty.
struct Fence {
  std::shared_ptr<Stream> stream;
  uint64_t sequence = 0;
  /// Needs the scheduler's lock.
  bool isDone() const;
};

class Stream : public std::enable_shared_from_this<Stream> {
public:
  enum class Kind {
    /// The legacy default stream (CUDA) or null stream (HIP) of a device.
    Null,
    /// Created without CU_STREAM_NON_BLOCKING: synchronizes with Null.
    Blocking,
    NonBlocking,
  };

  /// Starts the worker. The stream lives while its worker has work, or
  /// while anyone holds it.
  static std::shared_ptr<Stream> create(Scheduler &scheduler, uint64_t id,
                                        int device, Kind kind);

  /// Queues `work` to run after `waits`; returns the fence of the new task.
  /// A `marker` (a wait, an event's timestamp) that nothing holds up is done
  /// at once, as a GPU reaches it at once: its time is not a worker's
  /// wake-up. Needs the scheduler's lock.
  Fence submit(std::function<void()> work, std::vector<Fence> waits,
               bool marker = false);
  /// The fence of everything submitted so far. Needs the lock.
  Fence tail() { return Fence{shared_from_this(), submitted}; }
  /// Nothing left to run. Needs the lock.
  bool isIdle() const { return completed == submitted; }
  /// No more work will come: the worker ends once the queue is empty.
  /// Needs the lock.
  void retire();
  /// Waits until the worker of this retired, idle stream has ended. Without
  /// the lock, which the worker needs to end.
  void joinWorker();
  /// Lets the worker of this retired stream end on its own, once its queue
  /// is empty. Needs the lock.
  void detachWorker();
  ~Stream();

  const uint64_t id;
  const int device;
  const Kind kind;

private:
  friend struct Fence;
  Stream(Scheduler &scheduler, uint64_t id, int device, Kind kind)
      : id(id), device(device), kind(kind), scheduler(scheduler) {}
  void run();

  struct Task {
    std::function<void()> work;
    std::vector<Fence> waits;
  };
  Scheduler &scheduler;
  std::deque<Task> queue;
  uint64_t submitted = 0;
  uint64_t completed = 0;
  bool retired = false;
  std::thread worker;
};

/// Waits, with the lock held by `lock`, until `fence` is done.
void waitFor(Scheduler &scheduler, std::unique_lock<std::mutex> &lock,
             const Fence &fence);

struct Event {
  uint64_t id = 0;
  int device = 0;
  unsigned flags = 0;
  bool timing = true;
  /// cuEventRecord was called: `fence` is the work it captured.
  bool recorded = false;
  Fence fence;
  /// Bumped by each record, so that a task of an earlier one does not set
  /// the time of a later one.
  std::atomic<uint64_t> generation{0};
  /// When the stream reached the last record, in steady-clock nanoseconds;
  /// set by the stream's worker.
  std::atomic<int64_t> reachedNs{0};
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_STREAMS_H
