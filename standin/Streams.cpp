//===- Streams.cpp - Streams with a worker thread each, and events --------===//

#include "standin/Streams.h"

#include <thread>

namespace gpu_runner {
namespace standin {

bool Fence::isDone() const { return !stream || stream->completed >= sequence; }

void waitFor(Scheduler &scheduler, std::unique_lock<std::mutex> &lock,
             const Fence &fence) {
  scheduler.changed.wait(lock, [&] { return fence.isDone(); });
}

std::shared_ptr<Stream> Stream::create(Scheduler &scheduler, uint64_t id,
                                       int device, Kind kind) {
  std::shared_ptr<Stream> stream(new Stream(scheduler, id, device, kind));
  // The worker keeps its stream alive until it has run everything.
  stream->worker = std::thread([stream] { stream->run(); });
  return stream;
}

Fence Stream::submit(std::function<void()> work, std::vector<Fence> waits,
                     bool marker) {
  bool heldUp = !queue.empty();
  for (const Fence &fence : waits)
    heldUp = heldUp || !fence.isDone();
  if (marker && !heldUp) {
    if (work)
      work();
    ++submitted;
    ++completed;
    scheduler.changed.notify_all();
    return tail();
  }
  queue.push_back(Task{std::move(work), std::move(waits)});
  ++submitted;
  scheduler.changed.notify_all();
  return tail();
}

void Stream::retire() {
  retired = true;
  scheduler.changed.notify_all();
}

void Stream::joinWorker() {
  if (worker.joinable())
    worker.join();
}

void Stream::detachWorker() {
  if (worker.joinable())
    worker.detach();
}

Stream::~Stream() {
  // The last holder of a retired stream may be its own worker.
  detachWorker();
}

void Stream::run() {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  while (true) {
    scheduler.changed.wait(lock, [&] { return !queue.empty() || retired; });
    if (queue.empty())
      return;
    // References into a deque survive pushes at its back.
    Task &task = queue.front();
    for (const Fence &fence : task.waits)
      waitFor(scheduler, lock, fence);
    std::function<void()> work = std::move(task.work);
    lock.unlock();
    if (work)
      work();
    lock.lock();
    queue.pop_front();
    ++completed;
    scheduler.changed.notify_all();
  }
}

} // namespace standin
} // namespace gpu_runner
