//===- HostStreams.cpp - The host backend's streams and events ------------===//
//
// See HostStreams.h. One mutex guards the manager's state, with two exceptions
// that keep an enqueue and a task's run cheap: a stream's queue of tasks and
// its counts of tasks enqueued and completed. Each stream is served by one
// worker thread; a worker whose stream is reclaimed goes to an idle pool and
// serves the next new stream, because programs (and LLVM's lowering of a
// synchronous gpu.launch_func) create and destroy streams all the time.
//
// The queue has one producer at a time (enqueuing holds the mutex) and one
// consumer, the stream's worker, which pops and runs tasks without taking
// the mutex. When the queue is empty the worker spins for a few
// microseconds, in case the program is about to enqueue more, then sleeps;
// an enqueue wakes it (a system call) only when it sleeps. The worker takes
// the mutex only to sleep, to record a failure, to wake the threads waiting
// for its progress, and to reclaim its stream.
//
// Waiting for another stream's work (events, joins) is a task that blocks
// its own worker until the other stream's completed-task count reaches the
// mark; marks always point at work enqueued earlier, so waits cannot form a
// cycle.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostStreams.h"

#include "wrappers/host/FaultHandler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>

#include <pthread.h>
#include <sched.h>

namespace gpu_runner {

namespace {

const char *const kReleasedStreamMessage =
    "the stream of this op's async dependency was already released by a "
    "gpu.wait";

uint64_t idOf(void *handle) { return reinterpret_cast<uintptr_t>(handle); }
void *handleOf(uint64_t id) { return reinterpret_cast<void *>(id); }

/// How long a worker whose queue is empty keeps looking before it sleeps: a
/// program enqueuing copies one after the other comes back within a
/// microsecond or so, and waking a sleeping thread costs more than that.
/// Short, because on a machine with few cores the spinning takes a core that
/// another thread may want.
constexpr std::chrono::nanoseconds kSpinBeforeSleep{20000};

/// How many tasks a worker that was idle lets gather before it runs them,
/// and how long it waits for them at most (see gatherTasks).
constexpr uint64_t kGatherTasks = 16;
constexpr std::chrono::nanoseconds kGatherTime{2000};

/// Tells the core that this thread is spinning (it yields the core's shared
/// resources to the other hardware thread, and saves power).
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

} // namespace

struct StreamManager::QueuedTask {
  Task run;
  const char *loc = nullptr;
};

/// A stream's tasks, first in first out, in a chain of fixed-size blocks.
/// One producer at a time: push is called with the manager's mutex held,
/// which orders successive producers. One consumer, the stream's worker:
/// pop is called without the mutex. The queue keeps no count of its own;
/// the caller publishes each push with a release store of the stream's
/// `enqueued` count, and pops only a task it saw counted there with an
/// acquire load, which makes the task, and the link to its block, visible.
class StreamManager::TaskQueue {
public:
  TaskQueue() : head(new Block), tail(head) {}
  ~TaskQueue() {
    while (head) {
      Block *next = head->next;
      delete head;
      head = next;
    }
  }
  TaskQueue(const TaskQueue &) = delete;
  TaskQueue &operator=(const TaskQueue &) = delete;

  /// The producer: appends a task, to be published by the caller.
  void push(QueuedTask task) {
    if (tailIndex == kBlockTasks) {
      Block *block = new Block;
      tail->next = block; // published with the task, below
      tail = block;
      tailIndex = 0;
    }
    tail->tasks[tailIndex++] = std::move(task);
  }

  /// The consumer: takes the oldest task, which must have been published.
  QueuedTask pop() {
    if (headIndex == kBlockTasks) {
      Block *next = head->next;
      delete head;
      head = next;
      headIndex = 0;
    }
    return std::move(head->tasks[headIndex++]);
  }

private:
  static constexpr size_t kBlockTasks = 64;
  struct Block {
    QueuedTask tasks[kBlockTasks];
    Block *next = nullptr;
  };
  // The consumer's end.
  alignas(64) Block *head;
  size_t headIndex = 0;
  // The producer's end, on its own cache line so that pushing and popping
  // do not contend for one.
  alignas(64) Block *tail;
  size_t tailIndex = 0;
};

struct StreamManager::StreamState {
  explicit StreamState(uint64_t streamId) : id(streamId) {}
  // First, on a cache line the worker does not write while it runs tasks:
  // what every enqueue reads.
  const uint64_t id;
  /// Written with the mutex held; the worker also reads it without the
  /// mutex, to stop spinning on a released stream.
  std::atomic<bool> released{false};
  Worker *worker = nullptr;
  /// Pushed with the mutex held, popped by the worker without it; its two
  /// ends are on cache lines of their own.
  alignas(64) TaskQueue queue;
  /// Tasks pushed so far: written with the mutex held (a release store that
  /// publishes the task), read by the worker without it.
  alignas(64) std::atomic<uint64_t> enqueued{0};
  /// Tasks finished (run, failed or skipped) so far: written by the worker
  /// only, without the mutex; read by anyone.
  alignas(64) std::atomic<uint64_t> completed{0};
  /// The smallest `completed` count a waiter waits for; the worker wakes the
  /// waiters only when it gets there, not after every task. Written with the
  /// mutex held; read by the worker without it (see waitFor).
  std::atomic<uint64_t> wakeAt{UINT64_MAX};
  /// The first failure of a task; later tasks are skipped, as a GPU stream
  /// stops at a sticky error. Written by the worker with the mutex held.
  bool failed = false;
  std::string errorLoc;
  std::string errorMessage;
};

struct StreamManager::EventState {
  bool recorded = false;
  Mark mark;
  /// Released as a token while its record was still running: kept for the
  /// token's later uses, destroyed as far as the event functions can tell.
  bool released = false;
};

struct StreamManager::Worker {
  StreamManager *owner = nullptr;
  pthread_t thread;
  std::condition_variable wake;
  /// The stream this worker serves; null while idle.
  std::shared_ptr<StreamState> stream;
  bool exit = false;
  /// Whether the worker waits on `wake`, or is about to: only then does new
  /// work (or a release, or exit) need to notify it.
  bool sleeping = false;
};

StreamManager::StreamManager() = default;

StreamManager::~StreamManager() { (void)shutdown(); }

void *StreamManager::workerMain(void *worker) {
  Worker *self = static_cast<Worker *>(worker);
  self->owner->workerLoop(*self);
  return nullptr;
}

void StreamManager::workerLoop(Worker &worker) {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    while (!worker.exit && !worker.stream) {
      worker.sleeping = true;
      worker.wake.wait(lock);
      worker.sleeping = false;
    }
    if (!worker.stream)
      return; // exit, and no stream to finish first
    std::shared_ptr<StreamState> stream = worker.stream;
    lock.unlock();
    serve(worker, *stream, lock);

    // Released and drained (serve returns with the mutex held): reclaim the
    // stream, keep its failure for the next synchronization, and wait for
    // another stream to serve.
    if (stream->failed)
      pendingErrors.push_back(
          PendingError{stream->id, stream->errorLoc, stream->errorMessage});
    if (lastStream == stream.get())
      lastStream = nullptr;
    streams.erase(stream->id);
    stream->worker = nullptr;
    worker.stream = nullptr;
    idleWorkers.push_back(&worker);
    progress.notify_all();
  }
}

void StreamManager::serve(Worker &worker, StreamState &stream,
                          std::unique_lock<std::mutex> &lock) {
  // Only this thread writes `completed`.
  uint64_t done = stream.completed.load(std::memory_order_relaxed);
  // The `enqueued` count last read: the tasks before it are published, and
  // are run without reading the count again (a line the producer writes).
  uint64_t seen = done;
  while (true) {
    if (done == seen) {
      seen = stream.enqueued.load(std::memory_order_acquire);
      if (done == seen) {
        if (!awaitWork(worker, stream, done, lock))
          return; // released and drained, with the mutex held
        seen = gatherTasks(stream, done);
      }
    }

    QueuedTask task = stream.queue.pop();
    bool skip = stream.failed;
    Status status = Status();
    if (!skip) {
      RunningOpScope running(task.loc);
      status = task.run();
    }
    task.run = nullptr; // destroy what the task captured before counting it
    if (!status.ok() && !stream.failed) {
      std::lock_guard<std::mutex> failureLock(mutex);
      stream.failed = true;
      stream.errorLoc = task.loc ? task.loc : "";
      stream.errorMessage = status.message();
    }
    // Sequentially consistent, with the load of `wakeAt` after it: a waiter
    // stores `wakeAt` and then loads `completed` (waitFor), so at least one
    // of the two sees the other's store, and no waiter sleeps through the
    // count it waits for.
    ++done;
    stream.completed.store(done, std::memory_order_seq_cst);
    // Waking every waiter after every task would cost the worker its core
    // on a busy machine each time (a woken thread preempts it), for
    // waiters that mostly go back to sleep.
    if (done >= stream.wakeAt.load(std::memory_order_seq_cst)) {
      // With the mutex held, so that the wake-up cannot fall between a
      // waiter's last check and its wait.
      std::lock_guard<std::mutex> wakeLock(mutex);
      stream.wakeAt.store(UINT64_MAX, std::memory_order_seq_cst);
      progress.notify_all();
    }
  }
}

uint64_t StreamManager::gatherTasks(StreamState &stream, uint64_t done) {
  // Running each task as soon as it is pushed puts the worker in lock step
  // with the program: every pop then reads a queue slot and a count that the
  // other core has just written, which costs more than a small copy. A
  // worker that was idle lets a few tasks gather first, unless a thread
  // waits for this stream or the stream takes no more work.
  auto more = [&](uint64_t seen) {
    return seen - done < kGatherTasks &&
           stream.wakeAt.load(std::memory_order_relaxed) == UINT64_MAX &&
           !stream.released.load(std::memory_order_relaxed);
  };
  uint64_t seen = stream.enqueued.load(std::memory_order_acquire);
  if (!more(seen))
    return seen;
  auto deadline = std::chrono::steady_clock::now() + kGatherTime;
  for (unsigned spins = 1; more(seen); ++spins) {
    cpuRelax();
    if (spins % 16 == 0 && std::chrono::steady_clock::now() >= deadline)
      break;
    seen = stream.enqueued.load(std::memory_order_acquire);
  }
  return stream.enqueued.load(std::memory_order_acquire);
}

bool StreamManager::awaitWork(Worker &worker, StreamState &stream,
                              uint64_t done,
                              std::unique_lock<std::mutex> &lock) {
  // Spin first: checking the queue is a load, sleeping and being woken are
  // two system calls and a thread wake-up.
  auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleep;
  for (unsigned spins = 1;; ++spins) {
    if (stream.enqueued.load(std::memory_order_acquire) != done)
      return true;
    if (stream.released.load(std::memory_order_relaxed))
      break; // no more work will come: reclaim it now
    cpuRelax();
    if (spins % 64 == 0 && std::chrono::steady_clock::now() >= deadline)
      break;
  }
  // Then sleep. Pushes and releases happen with the mutex held and notify a
  // worker marked sleeping, so checking for them with the mutex held, then
  // waiting (which releases it), loses none.
  lock.lock();
  while (true) {
    if (stream.enqueued.load(std::memory_order_acquire) != done) {
      lock.unlock();
      return true;
    }
    if (stream.released)
      return false;
    worker.sleeping = true;
    worker.wake.wait(lock);
    worker.sleeping = false;
  }
}

StreamManager::HandleKind StreamManager::kindOf(void *handle) const {
  uint64_t id = idOf(handle);
  return id < handleKinds.size() ? handleKinds[id] : HandleKind::None;
}

bool StreamManager::isEvent(void *handle) const {
  std::lock_guard<std::mutex> lock(mutex);
  return handle && kindOf(handle) == HandleKind::Event;
}

Status StreamManager::invalidStreamHandle(void *handle) const {
  std::string message = "invalid stream handle " + formatPointer(handle);
  if (kindOf(handle) == HandleKind::Event)
    message += ": it is an event";
  else
    message += ": no stream was created with it";
  return Status::error(message);
}

Status StreamManager::lookupStream(void *handle,
                                   std::shared_ptr<StreamState> &stream,
                                   bool forEnqueue) const {
  stream = nullptr;
  if (kindOf(handle) != HandleKind::Stream)
    return invalidStreamHandle(handle);
  auto it = streams.find(idOf(handle));
  if (it != streams.end())
    stream = it->second;
  if (forEnqueue && (!stream || stream->released))
    return Status::error(kReleasedStreamMessage);
  return Status();
}

StreamManager::StreamState *
StreamManager::streamForEnqueue(void *handle) const {
  uint64_t id = idOf(handle);
  if (!lastStream || lastStreamId != id) {
    if (kindOf(handle) != HandleKind::Stream)
      return nullptr;
    auto it = streams.find(id);
    if (it == streams.end())
      return nullptr;
    lastStream = it->second.get();
    lastStreamId = id;
  }
  return lastStream->released.load(std::memory_order_relaxed) ? nullptr
                                                              : lastStream;
}

Status StreamManager::lookupEvent(void *handle,
                                  std::shared_ptr<EventState> &event) const {
  event = nullptr;
  if (kindOf(handle) != HandleKind::Event)
    return Status::error("invalid event handle " + formatPointer(handle) +
                         (kindOf(handle) == HandleKind::Stream
                              ? ": it is a stream"
                              : ": no event was created with it"));
  auto it = events.find(idOf(handle));
  if (it == events.end() || it->second->released)
    return Status::error("the event " + formatPointer(handle) +
                         " was already destroyed");
  event = it->second;
  return Status();
}

Status StreamManager::tokenMark(void *token, Mark &mark) const {
  mark.clear();
  switch (kindOf(token)) {
  case HandleKind::Stream:
    // Nothing is enqueued on a released stream: its count is final.
    if (auto it = streams.find(idOf(token)); it != streams.end())
      mark.emplace_back(it->second, enqueuedCount(*it->second));
    return Status();
  case HandleKind::Event:
    if (auto it = events.find(idOf(token));
        it != events.end() && it->second->recorded)
      mark = it->second->mark;
    return Status();
  case HandleKind::None:
    break;
  }
  return invalidStreamHandle(token);
}

uint64_t StreamManager::enqueuedCount(const StreamState &stream) {
  // Only writers with the mutex held, which the caller holds.
  return stream.enqueued.load(std::memory_order_relaxed);
}

void StreamManager::push(StreamState &stream, Task task, const char *loc) {
  stream.queue.push(QueuedTask{std::move(task), loc});
  stream.enqueued.store(enqueuedCount(stream) + 1, std::memory_order_release);
  if (stream.worker->sleeping)
    stream.worker->wake.notify_one();
}

void StreamManager::pushWait(StreamState &stream, Mark mark) {
  if (isDone(mark))
    return;
  push(
      stream,
      [this, mark = std::move(mark)]() {
        std::unique_lock<std::mutex> waitLock(mutex);
        waitFor(waitLock, mark);
        return Status();
      },
      "gpu.wait");
}

void StreamManager::releaseEvent(uint64_t id) {
  auto it = events.find(id);
  if (it == events.end() || it->second->released)
    return;
  if (!it->second->recorded || isDone(it->second->mark)) {
    events.erase(it);
    return;
  }
  it->second->released = true;
  // Pruning only when the count has doubled keeps the work per release
  // constant on average, however many events a program leaves running.
  constexpr size_t kMinimumPrune = 64;
  if (++releasedEvents < std::max(pruneReleasedAt, kMinimumPrune))
    return;
  for (auto event = events.begin(); event != events.end();) {
    bool forget = event->second->released && isDone(event->second->mark);
    releasedEvents -= forget ? 1 : 0;
    event = forget ? events.erase(event) : std::next(event);
  }
  pruneReleasedAt = 2 * releasedEvents;
}

void StreamManager::release(StreamState &stream) {
  if (stream.released)
    return;
  stream.released = true;
  if (stream.worker->sleeping)
    stream.worker->wake.notify_one();
}

StreamManager::Mark StreamManager::markAll() const {
  Mark mark;
  mark.reserve(streams.size());
  for (const auto &entry : streams)
    mark.emplace_back(entry.second, enqueuedCount(*entry.second));
  return mark;
}

bool StreamManager::isDone(const Mark &mark) {
  for (const auto &point : mark)
    if (point.first->completed.load(std::memory_order_acquire) < point.second)
      return false;
  return true;
}

void StreamManager::waitFor(std::unique_lock<std::mutex> &lock,
                            const Mark &mark) {
  while (!isDone(mark)) {
    // Registered again after every wake-up: the worker clears its mark when
    // it wakes the waiters, some of which may wait for more.
    for (const auto &point : mark) {
      StreamState &stream = *point.first;
      if (stream.completed.load(std::memory_order_acquire) < point.second &&
          point.second < stream.wakeAt.load(std::memory_order_relaxed))
        stream.wakeAt.store(point.second, std::memory_order_seq_cst);
    }
    // Checked again after registering, sequentially consistent: the worker
    // stores `completed` and then loads `wakeAt` (serve), so either this
    // sees its count or it sees this mark and wakes us, with the mutex.
    bool done = true;
    for (const auto &point : mark)
      done &= point.first->completed.load(std::memory_order_seq_cst) >=
              point.second;
    if (done)
      return;
    progress.wait(lock);
  }
}

Status StreamManager::firstError(const Mark &mark) const {
  for (const auto &point : mark)
    if (point.first->failed)
      return Status::errorAt(point.first->errorLoc, point.first->errorMessage);
  return Status();
}

Status StreamManager::pendingError(uint64_t id) const {
  for (const PendingError &error : pendingErrors)
    if (error.id == id)
      return Status::errorAt(error.loc, error.message);
  return Status();
}

Status StreamManager::createStream(void *&stream) {
  std::lock_guard<std::mutex> lock(mutex);
  return createStreamLocked(stream);
}

Status StreamManager::createStreamLocked(void *&stream) {
  stream = nullptr;
  Worker *worker;
  if (!idleWorkers.empty()) {
    worker = idleWorkers.back();
    idleWorkers.pop_back();
  } else {
    auto created = std::make_unique<Worker>();
    created->owner = this;
    int error =
        pthread_create(&created->thread, nullptr, &workerMain, created.get());
    if (error != 0)
      return Status::error("cannot start the worker thread of a new stream: " +
                           std::string(std::strerror(error)));
    worker = created.get();
    workers.push_back(std::move(created));
  }
  uint64_t id = nextHandle++;
  handleKinds.resize(id + 1, HandleKind::None);
  handleKinds[id] = HandleKind::Stream;
  auto state = std::make_shared<StreamState>(id);
  state->worker = worker;
  worker->stream = state;
  streams.emplace(id, std::move(state));
  stream = handleOf(id);
  return Status();
}

Status StreamManager::checkEnqueue(void *stream) const {
  if (!stream)
    return Status();
  std::lock_guard<std::mutex> lock(mutex);
  if (streamForEnqueue(stream))
    return Status();
  // The error, as lookupStream words it.
  std::shared_ptr<StreamState> state;
  return lookupStream(stream, state, /*forEnqueue=*/true);
}

Status StreamManager::enqueue(void *stream, Task task, const char *loc) {
  std::unique_lock<std::mutex> lock(mutex);
  if (!stream) {
    GPU_RUNNER_RETURN_IF_ERROR(synchronizeAllLocked(lock));
    lock.unlock();
    RunningOpScope running(loc);
    return task();
  }
  if (StreamState *state = streamForEnqueue(stream)) {
    push(*state, std::move(task), loc);
    return Status();
  }
  std::shared_ptr<StreamState> state;
  return lookupStream(stream, state, /*forEnqueue=*/true);
}

Status StreamManager::synchronize(void *stream) {
  std::unique_lock<std::mutex> lock(mutex);
  if (!stream)
    return synchronizeAllLocked(lock);
  std::shared_ptr<StreamState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupStream(stream, state, /*forEnqueue=*/false));
  if (!state) // released and reclaimed
    return pendingError(idOf(stream));
  Mark mark{{state, enqueuedCount(*state)}};
  waitFor(lock, mark);
  return firstError(mark);
}

Status StreamManager::destroy(void *stream) {
  if (!stream)
    return Status::error("cannot destroy the null stream: synchronous ops "
                         "have no stream to destroy");
  std::unique_lock<std::mutex> lock(mutex);
  std::shared_ptr<StreamState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupStream(stream, state, /*forEnqueue=*/false));
  if (!state)
    return Status(); // released and reclaimed
  if (!state->released) {
    release(*state);
    return Status();
  }
  // Released twice: a program that waits on a token a gpu.wait consumed
  // already. Its work must still be done when this returns.
  waitFor(lock, Mark{{state, enqueuedCount(*state)}});
  return Status();
}

Status StreamManager::join(void *stream, void *dependency) {
  if (!stream) {
    // Joining into the synchronous stream is waiting for the dependency.
    GPU_RUNNER_RETURN_IF_ERROR(synchronize(dependency));
    return dependency ? destroy(dependency) : Status();
  }
  std::unique_lock<std::mutex> lock(mutex);
  std::shared_ptr<StreamState> state;
  if (stream == dependency)
    return lookupStream(stream, state, /*forEnqueue=*/false);
  GPU_RUNNER_RETURN_IF_ERROR(lookupStream(stream, state, /*forEnqueue=*/true));
  if (!dependency)
    return Status(); // synchronous work is done by the time it returns
  std::shared_ptr<StreamState> dependencyState;
  GPU_RUNNER_RETURN_IF_ERROR(
      lookupStream(dependency, dependencyState, /*forEnqueue=*/false));
  if (!dependencyState)
    return Status(); // reclaimed: all its work is done
  pushWait(*state, Mark{{dependencyState, enqueuedCount(*dependencyState)}});
  release(*dependencyState);
  return Status();
}

Status StreamManager::synchronizeAll() {
  std::unique_lock<std::mutex> lock(mutex);
  return synchronizeAllLocked(lock);
}

Status StreamManager::synchronizeAllLocked(std::unique_lock<std::mutex> &lock) {
  Mark mark = markAll();
  waitFor(lock, mark);
  GPU_RUNNER_RETURN_IF_ERROR(firstError(mark));
  if (!pendingErrors.empty())
    return Status::errorAt(pendingErrors.front().loc,
                           pendingErrors.front().message);
  return Status();
}

Status StreamManager::createEvent(void *&event) {
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t id = nextHandle++;
  handleKinds.resize(id + 1, HandleKind::None);
  handleKinds[id] = HandleKind::Event;
  events.emplace(id, std::make_shared<EventState>());
  event = handleOf(id);
  return Status();
}

Status StreamManager::destroyEvent(void *event) {
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<EventState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupEvent(event, state));
  events.erase(idOf(event));
  return Status();
}

Status StreamManager::recordEvent(void *event, void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<EventState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupEvent(event, state));
  Mark mark;
  if (stream) {
    std::shared_ptr<StreamState> streamState;
    GPU_RUNNER_RETURN_IF_ERROR(
        lookupStream(stream, streamState, /*forEnqueue=*/true));
    mark.emplace_back(streamState, enqueuedCount(*streamState));
  } else {
    mark = markAll();
  }
  state->recorded = true;
  state->mark = std::move(mark);
  return Status();
}

Status StreamManager::synchronizeEvent(void *event) {
  std::unique_lock<std::mutex> lock(mutex);
  std::shared_ptr<EventState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupEvent(event, state));
  if (!state->recorded)
    return Status();
  Mark mark = state->mark; // a record while waiting must not move this wait
  waitFor(lock, mark);
  return firstError(mark);
}

Status StreamManager::waitEvent(void *stream, void *event) {
  if (!stream)
    return synchronizeEvent(event);
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<StreamState> streamState;
  GPU_RUNNER_RETURN_IF_ERROR(
      lookupStream(stream, streamState, /*forEnqueue=*/true));
  std::shared_ptr<EventState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupEvent(event, state));
  if (state->recorded)
    pushWait(*streamState, state->mark);
  return Status();
}

Status StreamManager::streamFromToken(void *token, void *&stream) {
  std::lock_guard<std::mutex> lock(mutex);
  stream = token;
  if (!token || streamForEnqueue(token))
    return Status();
  Mark mark;
  GPU_RUNNER_RETURN_IF_ERROR(tokenMark(token, mark));
  GPU_RUNNER_RETURN_IF_ERROR(createStreamLocked(stream));
  pushWait(*streams.at(idOf(stream)), std::move(mark));
  if (kindOf(token) == HandleKind::Event)
    releaseEvent(idOf(token));
  return Status();
}

Status StreamManager::joinToken(void *stream, void *token) {
  if (!isEvent(token))
    return join(stream, token);
  if (!stream) {
    GPU_RUNNER_RETURN_IF_ERROR(synchronizeToken(token));
    return releaseToken(token);
  }
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<StreamState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupStream(stream, state, /*forEnqueue=*/true));
  Mark mark;
  GPU_RUNNER_RETURN_IF_ERROR(tokenMark(token, mark));
  pushWait(*state, std::move(mark));
  releaseEvent(idOf(token));
  return Status();
}

Status StreamManager::synchronizeToken(void *token) {
  if (!isEvent(token))
    return synchronize(token);
  std::unique_lock<std::mutex> lock(mutex);
  Mark mark;
  GPU_RUNNER_RETURN_IF_ERROR(tokenMark(token, mark));
  waitFor(lock, mark);
  return firstError(mark);
}

Status StreamManager::releaseToken(void *token) {
  if (!isEvent(token))
    return destroy(token);
  std::lock_guard<std::mutex> lock(mutex);
  releaseEvent(idOf(token));
  return Status();
}

Status StreamManager::eventFromToken(void *token, void *&event) {
  std::lock_guard<std::mutex> lock(mutex);
  event = token;
  Mark mark;
  if (!token) {
    mark = markAll();
  } else {
    GPU_RUNNER_RETURN_IF_ERROR(tokenMark(token, mark));
    auto it = streams.find(idOf(token));
    bool liveStream = kindOf(token) == HandleKind::Stream &&
                      it != streams.end() && !it->second->released;
    if (!liveStream)
      return Status();
  }
  uint64_t id = nextHandle++;
  handleKinds.resize(id + 1, HandleKind::None);
  handleKinds[id] = HandleKind::Event;
  auto state = std::make_shared<EventState>();
  state->recorded = true;
  state->mark = std::move(mark);
  events.emplace(id, std::move(state));
  event = handleOf(id);
  return Status();
}

Status StreamManager::shutdown() {
  std::unique_lock<std::mutex> lock(mutex);
  Status status = synchronizeAllLocked(lock);
  for (auto &entry : streams)
    release(*entry.second);
  progress.wait(lock, [&] { return streams.empty(); });
  if (status.ok() && !pendingErrors.empty())
    status = Status::errorAt(pendingErrors.front().loc,
                             pendingErrors.front().message);
  pendingErrors.clear();
  events.clear();
  releasedEvents = 0;
  pruneReleasedAt = 0;
  for (auto &worker : workers) {
    worker->exit = true;
    worker->wake.notify_one();
  }
  std::vector<std::unique_ptr<Worker>> finished = std::move(workers);
  workers.clear();
  idleWorkers.clear();
  lock.unlock();
  for (auto &worker : finished)
    pthread_join(worker->thread, nullptr);
  return status;
}

size_t StreamManager::workerCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return workers.size();
}

size_t StreamManager::streamCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return streams.size();
}

size_t StreamManager::eventCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return events.size();
}

} // namespace gpu_runner
