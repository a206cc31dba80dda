//===- HostStreams.cpp - The host backend's streams and events ------------===//
//
// See HostStreams.h. One mutex guards the manager's state, with two exceptions
// that keep an enqueue and a task's run cheap: a stream's queue of tasks and
// its counts of tasks enqueued and completed (HostStreamQueue.h). This file
// is what handles name: streams, events and tokens, their checks and
// errors; HostStreamQueue.cpp is how a stream's worker runs its tasks and
// how the others wait for it.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostStreams.h"

#include "wrappers/common/CheckReports.h"
#include "wrappers/common/FaultHandler.h"
#include "wrappers/host/HostStreamQueue.h"

#include <algorithm>
#include <cstring>
#include <string>

#include <pthread.h>

namespace gpu_runner {

namespace {

const char *const kReleasedStreamMessage =
    "the stream of this op's async dependency was already released by a "
    "gpu.wait";

uint64_t idOf(void *handle) { return reinterpret_cast<uintptr_t>(handle); }
void *handleOf(uint64_t id) { return reinterpret_cast<void *>(id); }

} // namespace

struct StreamManager::EventState {
  bool recorded = false;
  Mark mark;
  /// Released as a token while its record was still running: kept for the
  /// token's later uses, destroyed as far as the event functions can tell.
  bool released = false;
};

StreamManager::StreamManager() = default;

StreamManager::~StreamManager() { (void)shutdown(); }

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

void StreamManager::releaseEvent(uint64_t id) {
  madeAt.erase(id);
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

StreamManager::Mark StreamManager::markAll() const {
  Mark mark;
  mark.reserve(streams.size());
  for (const auto &entry : streams)
    mark.emplace_back(entry.second, enqueuedCount(*entry.second));
  return mark;
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

Status StreamManager::createStream(void *&stream, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  return createStreamLocked(stream, loc);
}

void StreamManager::noteMadeAt(uint64_t id, const char *loc) {
  if (loc && isCheckEnabled(Check::Leakcheck))
    madeAt.emplace(id, loc);
}

std::vector<StreamManager::Unreleased>
StreamManager::unreleasedHandles() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<Unreleased> handles;
  handles.reserve(madeAt.size());
  for (const auto &[id, loc] : madeAt)
    handles.push_back(
        Unreleased{kindOf(handleOf(id)) == HandleKind::Event, loc});
  return handles;
}

Status StreamManager::createStreamLocked(void *&stream, const char *loc) {
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
  noteMadeAt(id, loc);
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

Status StreamManager::createEvent(void *&event, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t id = nextHandle++;
  handleKinds.resize(id + 1, HandleKind::None);
  handleKinds[id] = HandleKind::Event;
  events.emplace(id, std::make_shared<EventState>());
  noteMadeAt(id, loc);
  event = handleOf(id);
  return Status();
}

Status StreamManager::destroyEvent(void *event) {
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<EventState> state;
  GPU_RUNNER_RETURN_IF_ERROR(lookupEvent(event, state));
  events.erase(idOf(event));
  madeAt.erase(idOf(event));
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

Status StreamManager::streamFromToken(void *token, void *&stream,
                                      const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  stream = token;
  if (!token || streamForEnqueue(token))
    return Status();
  Mark mark;
  GPU_RUNNER_RETURN_IF_ERROR(tokenMark(token, mark));
  GPU_RUNNER_RETURN_IF_ERROR(createStreamLocked(stream, loc));
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

Status StreamManager::eventFromToken(void *token, void *&event,
                                     const char *loc) {
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
  noteMadeAt(id, loc);
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
  madeAt.clear();
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
