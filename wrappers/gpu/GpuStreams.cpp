//===- GpuStreams.cpp - GPU runtime: tokens -------------------------------===//
//
// Streams and events behind the program's tokens; see GpuRuntime.h. The
// runtime's timers, recorded on those streams, are GpuTimers.cpp.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"

#include <algorithm>
#include <iterator>

namespace gpu_runner {
namespace {

/// A token handle from its id, and back. Ids start high enough that no
/// handle is a small integer a program might pass by mistake.
constexpr uint64_t kFirstTokenId = 0x1000;

uint64_t tokenId(void *token) { return reinterpret_cast<uintptr_t>(token); }

} // namespace

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

void *GpuRuntime::addToken(Token token) {
  nextTokenId = std::max(nextTokenId, kFirstTokenId);
  uint64_t id = nextTokenId++;
  tokens.emplace(id, std::move(token));
  return reinterpret_cast<void *>(static_cast<uintptr_t>(id));
}

bool GpuRuntime::isReleased(void *token) const {
  uint64_t id = tokenId(token);
  return id >= kFirstTokenId && id < nextTokenId && !tokens.count(id);
}

Status GpuRuntime::resolveToken(void *token, Token *&result) {
  auto it = tokens.find(tokenId(token));
  if (it != tokens.end()) {
    result = &it->second;
    return Status();
  }
  if (isReleased(token))
    return Status::error(
        "the stream of this op's async dependency was already released by a "
        "gpu.wait (or joined into another stream), and cannot take new work");
  return Status::error("invalid stream handle " + formatPointer(token) +
                       ": no stream or event of this program has it");
}

Status GpuRuntime::checkLoaded() const {
  if (loaded)
    return Status();
  return Status::error(std::string("the ") + driver.vendor() +
                       " backend was not initialized");
}

Status GpuRuntime::resolveStream(void *token, void *&stream, int &device) {
  GPU_RUNNER_RETURN_IF_ERROR(checkLoaded());
  if (!token) {
    stream = driver.getNullStream();
    device = defaultDevice;
    return makeCurrent(device);
  }
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  if (entry->isEvent)
    return Status::error("an event was passed where a stream was expected");
  stream = entry->stream;
  device = entry->device;
  return makeCurrent(device);
}

Status GpuRuntime::finishIfSynchronous(void *token, void *stream) {
  if (token)
    return Status();
  return checkResult(driver.synchronizeStream(stream));
}

Status GpuRuntime::createStream(void *&stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(checkLoaded());
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(defaultDevice));
  Token token;
  token.device = defaultDevice;
  GPU_RUNNER_RETURN_IF_ERROR(takeIdleOrNewStream(defaultDevice, token.stream));
  stream = addToken(std::move(token));
  return Status();
}

Status GpuRuntime::takeIdleOrNewStream(int device, void *&stream) {
  std::vector<void *> &idle = devices.at(device).idleStreams;
  if (idle.empty())
    return check(driver.createStream(stream));
  stream = idle.back();
  idle.pop_back();
  return Status();
}

Status GpuRuntime::resolveDependency(void *token, Token *&entry) {
  entry = nullptr;
  uint64_t id = tokenId(token);
  if (auto it = tokens.find(id); it != tokens.end())
    entry = &it->second;
  else if (auto it = draining.find(id); it != draining.end())
    entry = &it->second;
  else if (!isReleased(token))
    return Status::error("invalid stream handle " + formatPointer(token) +
                         ": no stream or event of this program has it");
  return Status();
}

Status GpuRuntime::waitForToken(void *stream, int device,
                                const Token &dependency) {
  if (dependency.isEvent) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(device));
    return check(driver.streamWaitEvent(stream, dependency.event));
  }
  // An event without timing marks the dependency's work so far; the driver
  // keeps the wait once the event is destroyed.
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(dependency.device));
  void *event = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.createEvent(event)));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(driver.recordEvent(event, dependency.stream)));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(device));
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.streamWaitEvent(stream, event)));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(dependency.device));
  return check(driver.destroyEvent(event));
}

Status GpuRuntime::retireIfDone(Token &token, bool &done) {
  done = false;
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(token.device));
  Result result = token.isEvent ? driver.queryEvent(token.event)
                                : driver.queryStream(token.stream);
  if (driver.isNotReady(result))
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(result, &token.lastLaunch));
  done = true;
  if (token.isEvent)
    return check(driver.destroyEvent(token.event));
  // Nothing can be enqueued on a released stream, so once idle it may serve
  // new work: no token that names it is left to mistake that work for its
  // own.
  devices.at(token.device).idleStreams.push_back(token.stream);
  return Status();
}

Status GpuRuntime::releaseToken(uint64_t id) {
  auto it = tokens.find(id);
  Token released = std::move(it->second);
  tokens.erase(it);
  bool done = false;
  GPU_RUNNER_RETURN_IF_ERROR(retireIfDone(released, done));
  if (!done)
    draining.emplace(id, std::move(released));
  return sweepDraining();
}

Status GpuRuntime::sweepDraining() {
  // Sweeping only when the table has doubled keeps the queries per release
  // constant on average, however many tokens a program leaves draining.
  constexpr size_t kMinimumSweep = 64;
  if (draining.size() < std::max(sweepDrainingAt, kMinimumSweep))
    return Status();
  for (auto it = draining.begin(); it != draining.end();) {
    bool done = false;
    if (it->second.waiters == 0)
      GPU_RUNNER_RETURN_IF_ERROR(retireIfDone(it->second, done));
    it = done ? draining.erase(it) : std::next(it);
  }
  sweepDrainingAt = 2 * draining.size();
  return Status();
}

Status GpuRuntime::destroyStream(void *token, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (tokens.count(tokenId(token)))
    return releaseToken(tokenId(token));
  // Releasing a token twice is fine: programs wait on a token twice.
  Token *entry = nullptr;
  return resolveDependency(token, entry);
}

Status GpuRuntime::synchronizeStream(void *token, const char *) {
  std::unique_lock<std::mutex> lock(mutex);
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveDependency(token, entry));
  if (!entry) // released, and its work is done
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  uint64_t id = tokenId(token);
  Token waited = *entry;
  ++entry->waiters;
  // Others may enqueue while this thread waits.
  lock.unlock();
  Result result = waited.isEvent ? driver.synchronizeEvent(waited.event)
                                 : driver.synchronizeStream(waited.stream);
  lock.lock();
  for (auto *table : {&tokens, &draining})
    if (auto it = table->find(id); it != table->end())
      --it->second.waiters;
  return checkResult(result, &waited.lastLaunch);
}

Status GpuRuntime::joinStream(void *stream, void *dependency, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (stream == dependency)
    return Status();
  Token *target = nullptr, *source = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, target));
  if (target->isEvent)
    return Status::error("an event was passed where a stream was expected");
  GPU_RUNNER_RETURN_IF_ERROR(resolveDependency(dependency, source));
  if (!source) // released, and its work is done
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(
      waitForToken(target->stream, target->device, *source));
  if (target->lastLaunch.kernel.empty())
    target->lastLaunch = source->lastLaunch;
  if (!tokens.count(tokenId(dependency)))
    return Status(); // released already
  return releaseToken(tokenId(dependency));
}

Status GpuRuntime::recordEventOnStream(void *stream, void *&event,
                                       const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *source = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveDependency(stream, source));
  // An event, or a released token, already names fixed work: it is its own
  // event, and stays valid once the caller releases it.
  if (!source || source->isEvent || !tokens.count(tokenId(stream))) {
    event = stream;
    return Status();
  }
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(source->device));
  Token token;
  token.isEvent = true;
  token.device = source->device;
  token.lastLaunch = source->lastLaunch;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.createEvent(token.event)));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(driver.recordEvent(token.event, source->stream)));
  event = addToken(std::move(token));
  return Status();
}

Status GpuRuntime::streamFromToken(void *token, void *&stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveDependency(token, entry));
  uint64_t id = tokenId(token);
  bool live = tokens.count(id);
  if (live && !entry->isEvent) {
    stream = token;
    return Status();
  }
  // An event, or a released token: a stream of its own that waits for
  // whatever of the token's work is left.
  Token fresh;
  fresh.device = entry ? entry->device : defaultDevice;
  GPU_RUNNER_RETURN_IF_ERROR(checkLoaded());
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(fresh.device));
  GPU_RUNNER_RETURN_IF_ERROR(takeIdleOrNewStream(fresh.device, fresh.stream));
  if (entry) {
    fresh.lastLaunch = entry->lastLaunch;
    GPU_RUNNER_RETURN_IF_ERROR(
        waitForToken(fresh.stream, fresh.device, *entry));
  }
  stream = addToken(std::move(fresh));
  // The event has served its first use; it stays a valid token.
  return live ? releaseToken(id) : Status();
}

Status GpuRuntime::createEvent(void *&event, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(checkLoaded());
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(defaultDevice));
  Token token;
  token.isEvent = true;
  token.device = defaultDevice;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.createEvent(token.event)));
  event = addToken(std::move(token));
  return Status();
}

Status GpuRuntime::destroyEvent(void *event, const char *loc) {
  return destroyStream(event, loc);
}

Status GpuRuntime::resolveEvent(void *event, void *&handle) {
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(event, entry));
  if (!entry->isEvent)
    return Status::error("a stream was passed where an event was expected");
  handle = entry->event;
  return Status();
}

Status GpuRuntime::recordEvent(void *event, void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *handle = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveEvent(event, handle));
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  return check(driver.recordEvent(handle, driverStream));
}

Status GpuRuntime::synchronizeEvent(void *event, const char *loc) {
  return synchronizeStream(event, loc);
}

Status GpuRuntime::streamWaitEvent(void *stream, void *event, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *handle = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveEvent(event, handle));
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  return check(driver.streamWaitEvent(driverStream, handle));
}

} // namespace gpu_runner
