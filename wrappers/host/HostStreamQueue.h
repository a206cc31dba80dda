//===- HostStreamQueue.h - A host stream's queue and its worker -----------===//
//
// What a host stream is made of, shared by HostStreams.cpp (handles, events,
// tokens) and HostStreamQueue.cpp (the worker that runs a stream's tasks and
// the waits for its progress): the queue of tasks, the counts that publish
// and complete them, and the worker thread. Private to StreamManager
// (HostStreams.h), whose nested types these are.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMQUEUE_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMQUEUE_H

#include "wrappers/host/HostStreams.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <string>

#include <pthread.h>

namespace gpu_runner {

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

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMQUEUE_H
