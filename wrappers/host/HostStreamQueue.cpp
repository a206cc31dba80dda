//===- HostStreamQueue.cpp - A host stream's queue and its worker ---------===//
//
// Each stream is served by one worker thread; a worker whose stream is
// reclaimed goes to an idle pool and serves the next new stream, because
// programs (and LLVM's lowering of a synchronous gpu.launch_func) create and
// destroy streams all the time.
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

#include "wrappers/host/HostStreamQueue.h"

#include "wrappers/common/FatalReport.h"

#include <chrono>

namespace gpu_runner {

namespace {

/// How long a worker whose queue is empty keeps looking before it sleeps: a
/// program enqueuing copies one after the other comes back within a
/// microsecond or so, and waking a sleeping thread costs more than that.
/// Short, because on a machine with few cores the spinning takes a core that
/// another thread may want.
constexpr std::chrono::nanoseconds kSpinBeforeSleep{20000};

/// How many tasks a worker that was idle lets gather before it runs them,
/// and how long it waits for them at most (see gatherTasks).
constexpr uint64_t kGatherTasks = 32;
constexpr std::chrono::nanoseconds kGatherTime{4000};

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
  // The count is read rarely while the tasks gather: each read takes the
  // line from the program's core, whose next push must then take it back,
  // and reading it at every spin made each push of 4 KiB copies cost 0.36
  // us instead of 0.13 on the 2-core build machine.
  auto deadline = std::chrono::steady_clock::now() + kGatherTime;
  for (unsigned spins = 1; more(seen); ++spins) {
    cpuRelax();
    if (spins % 16 != 0)
      continue;
    if (std::chrono::steady_clock::now() >= deadline)
      break;
    if (spins % 256 == 0)
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

void StreamManager::release(StreamState &stream) {
  if (stream.released)
    return;
  stream.released = true;
  madeAt.erase(stream.id);
  if (stream.worker->sleeping)
    stream.worker->wake.notify_one();
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

} // namespace gpu_runner
