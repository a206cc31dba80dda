//===- HostStreams.h - The host backend's streams and events --------------===//
//
// A stream is a real asynchronous in-order queue: enqueuing pushes a task
// and returns, and a worker thread of the stream's own runs the tasks one
// after the other. So a program that forgets a gpu.wait reads stale data
// here as it would on a GPU.
//
// The program sees streams and events as handles that are not pointers but
// sequential ids (1, 2, 3, ... cast to void *), never reused: a handle that
// was never issued, or one that belongs to a stream already released, is
// told apart exactly. A null stream handle means the synchronous form of an
// op, which (like CUDA's legacy default stream) waits for all work enqueued
// so far on every stream and then runs on the calling thread.
//
// Events mark a point in one stream's queue ("all work enqueued so far");
// a stream can wait for an event of another stream without blocking the
// program.
//
// Tokens (the program's async tokens, Runtime.h) are stream or event
// handles, and stay valid dependencies once released (the gpu dialect's
// tokens are values): a released stream names the work enqueued on it
// before its release, a released event its last record, both done or still
// running. Only new work on a released stream is an error.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMS_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMS_H

#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/HostStreamTask.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpu_runner {

class StreamManager {
public:
  /// What a stream runs. A failed Status is kept by the stream and reported
  /// at the next synchronization with it, at the location of the task's op.
  using Task = StreamTask;

  StreamManager();
  /// Drains every stream and joins the worker threads (see shutdown).
  ~StreamManager();
  StreamManager(const StreamManager &) = delete;
  StreamManager &operator=(const StreamManager &) = delete;

  /// Creates a stream for the op at `loc`; its handle is the next unused id.
  Status createStream(void *&stream, const char *loc = nullptr);

  /// Fails unless work may be enqueued on `stream`: null, or a stream that
  /// was created and not released yet.
  Status checkEnqueue(void *stream) const;

  /// Pushes `task` (of the op at `loc`) onto `stream` and returns at once.
  /// On the null stream: waits for every stream to drain what was enqueued
  /// so far, then runs `task` on the calling thread and returns its Status.
  Status enqueue(void *stream, Task task, const char *loc);

  /// Blocks until `stream` has run all work enqueued so far; reports the
  /// first failure of its tasks. A released stream: waits for it to drain.
  /// The null stream: synchronizeAll.
  Status synchronize(void *stream);

  /// Releases `stream` without blocking: its worker runs the work still
  /// queued, then the stream is reclaimed. On a stream released already:
  /// waits for its queued work, then does nothing.
  Status destroy(void *stream);

  /// Makes `stream` wait, without blocking the caller, for all work enqueued
  /// on `dependency` so far, then releases `dependency`. Nothing happens when
  /// both are the same stream. A dependency released already is fine: its
  /// work so far is all the work it will ever have.
  Status join(void *stream, void *dependency);

  /// Blocks until every stream has run all work enqueued so far; reports the
  /// first failure of a task on any stream, released ones included.
  Status synchronizeAll();

  /// Events share the streams' sequence of handle ids.
  Status createEvent(void *&event, const char *loc = nullptr);
  Status destroyEvent(void *event);
  /// The event completes when `stream` has run the work enqueued on it so
  /// far (on the null stream: when every stream has); recording it again
  /// moves it.
  Status recordEvent(void *event, void *stream);
  /// Blocks until the event's most recent record completes; at once for an
  /// event never recorded.
  Status synchronizeEvent(void *event);
  /// `stream`'s later work waits for the event's current record (none: no
  /// wait). On the null stream: blocks the caller like synchronizeEvent.
  Status waitEvent(void *stream, void *event);

  /// The stream an op whose first dependency is `token` runs on: `token`
  /// itself while it is a stream that takes work (or null); else, for an
  /// event or a released stream, a new stream whose work first waits for
  /// what is left of the token's work. An event is released by this use.
  Status streamFromToken(void *token, void *&stream, const char *loc = nullptr);
  /// Makes `stream` wait, without blocking, for `token`'s work so far, then
  /// releases `token` (join for a stream). On the null stream: waits.
  Status joinToken(void *stream, void *token);
  /// Blocks until `token`'s work is done; reports the first failure of its
  /// stream. A released token whose work is done returns at once.
  Status synchronizeToken(void *token);
  /// Releases `token`: a stream takes no more work (destroy), an event is
  /// forgotten once its record completes. Releasing it again is fine.
  Status releaseToken(void *token);
  /// The token a token becomes when it crosses an async.yield: a new event
  /// recorded on a stream that takes work; an event or a released stream,
  /// whose work is fixed already, is its own.
  Status eventFromToken(void *token, void *&event, const char *loc = nullptr);

  /// A stream or event never released, for leakcheck.
  struct Unreleased {
    bool isEvent;
    std::string loc;
  };
  /// The streams and events made, under leakcheck, for an op with a
  /// location and not released yet, oldest first: what shutdown would
  /// release for the program.
  std::vector<Unreleased> unreleasedHandles() const;

  /// Drains and releases every stream, forgets every event and joins the
  /// worker threads; reports the first failure of a task. The manager may be
  /// used again afterwards.
  Status shutdown();

  /// Whether `handle` was issued as an event (async tokens may be either).
  bool isEvent(void *handle) const;

  /// Introspection for tests.
  size_t workerCount() const;
  size_t streamCount() const; // live plus released-but-draining
  size_t eventCount() const;  // live plus released-but-running

private:
  struct StreamState;
  struct EventState;
  struct Worker;
  struct QueuedTask;
  class TaskQueue;
  /// A point in the queues of some streams: done when each stream has
  /// completed at least that many tasks.
  using Mark = std::vector<std::pair<std::shared_ptr<StreamState>, uint64_t>>;
  enum class HandleKind : uint8_t { None, Stream, Event };

  static void *workerMain(void *worker);
  void workerLoop(Worker &worker);
  /// Runs `stream`'s tasks until it is released and drained; returns with
  /// the mutex held (`lock`, which the caller passes unlocked).
  void serve(Worker &worker, StreamState &stream,
             std::unique_lock<std::mutex> &lock);
  /// Waits until `stream` has a task after the first `done`, with the mutex
  /// released (true), or is released with none (false, the mutex held).
  bool awaitWork(Worker &worker, StreamState &stream, uint64_t done,
                 std::unique_lock<std::mutex> &lock);
  /// After awaitWork: waits a little for more tasks to be pushed, so that
  /// they run back to back; returns the `enqueued` count it last read.
  static uint64_t gatherTasks(StreamState &stream, uint64_t done);

  // All of these expect `mutex` to be held.
  static uint64_t enqueuedCount(const StreamState &stream);
  HandleKind kindOf(void *handle) const;
  Status invalidStreamHandle(void *handle) const;
  Status lookupStream(void *handle, std::shared_ptr<StreamState> &stream,
                      bool forEnqueue) const;
  Status lookupEvent(void *handle, std::shared_ptr<EventState> &event) const;
  /// The stream `handle` names while it takes work (created and not
  /// released), or null: the check and the lookup of every enqueue, without
  /// copying a shared_ptr (whose count shares a cache line with the worker's
  /// end of the queue). Remembers the last stream found.
  StreamState *streamForEnqueue(void *handle) const;
  /// The end of `token`'s work: the current end of a stream (its last task
  /// for a released one; none once reclaimed), an event's last record (none
  /// once forgotten). Fails for a handle never issued.
  Status tokenMark(void *token, Mark &mark) const;
  Status createStreamLocked(void *&stream, const char *loc);
  /// Under leakcheck, remembers that the op at `loc` made handle `id`.
  void noteMadeAt(uint64_t id, const char *loc);
  void push(StreamState &stream, Task task, const char *loc);
  /// Makes `stream`'s later work wait for `mark`, unless it is done.
  void pushWait(StreamState &stream, Mark mark);
  void releaseEvent(uint64_t id);
  void release(StreamState &stream);
  Mark markAll() const;
  static bool isDone(const Mark &mark);
  void waitFor(std::unique_lock<std::mutex> &lock, const Mark &mark);
  Status firstError(const Mark &mark) const;
  Status pendingError(uint64_t id) const;
  Status synchronizeAllLocked(std::unique_lock<std::mutex> &lock);

  mutable std::mutex mutex;
  /// Notified whenever a task completes or a stream is reclaimed.
  std::condition_variable progress;
  uint64_t nextHandle = 1;
  /// What each issued id is, indexed by id: one byte per id, so that ids of
  /// reclaimed streams stay recognizable however many a program creates.
  std::vector<HandleKind> handleKinds;
  /// Streams not reclaimed yet (live, or released and draining), by id.
  std::unordered_map<uint64_t, std::shared_ptr<StreamState>> streams;
  /// The stream streamForEnqueue found last, and its id: a program enqueues
  /// on one stream many times in a row. Cleared when that stream is
  /// reclaimed (it is kept alive by `streams` until then).
  mutable uint64_t lastStreamId = 0;
  mutable StreamState *lastStream = nullptr;
  std::unordered_map<uint64_t, std::shared_ptr<EventState>> events;
  /// Released events whose record may still run; pruned of the others once
  /// this many are kept.
  size_t releasedEvents = 0;
  size_t pruneReleasedAt = 0;
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<Worker *> idleWorkers;
  /// Failures of reclaimed streams not reported yet: id, loc, message.
  struct PendingError {
    uint64_t id;
    std::string loc;
    std::string message;
  };
  std::vector<PendingError> pendingErrors;
  /// Under leakcheck: the op that made each handle not released yet, by id.
  std::map<uint64_t, std::string> madeAt;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMS_H
