//===- HostStreamsTest.cpp - The host backend's streams and events --------===//
//
// Queue order, real asynchrony, events and joins across streams, released
// streams, the synchronous (null) stream, handle ids, failures of tasks, and
// the reuse of worker threads. Blocking is proven with gates that the test
// opens itself, so no result depends on timing; where a test shows that
// something did NOT run yet, a short sleep gives a wrong implementation the
// chance to run it.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostStreams.h"
#include "wrappers/common/CheckReports.h"
#include "wrappers/host/StreamHazards.h"

#include "unittests/wrappers/TestSupport.h"

#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <utility>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;
using namespace std::chrono_literals;

namespace {

const char *const kReleased = "the stream of this op's async dependency was "
                              "already released by a gpu.wait";

void *createStream(StreamManager &streams) {
  void *stream = nullptr;
  REQUIRE_OK(streams.createStream(stream));
  REQUIRE(stream);
  return stream;
}

void *createEvent(StreamManager &streams) {
  void *event = nullptr;
  REQUIRE_OK(streams.createEvent(event));
  REQUIRE(event);
  return event;
}

/// Enqueues a task that waits for `gate`, then runs `then`.
void enqueueGated(
    StreamManager &streams, void *stream, Gate &gate,
    std::function<void()> then = [] {}) {
  REQUIRE_OK(streams.enqueue(
      stream,
      [&gate, then] {
        gate.wait();
        then();
        return Status();
      },
      "gpu.memcpy@s.mlir:1:1"));
}

void enqueueAction(StreamManager &streams, void *stream,
                   std::function<void()> action) {
  REQUIRE_OK(streams.enqueue(
      stream,
      [action] {
        action();
        return Status();
      },
      "gpu.memcpy@s.mlir:2:1"));
}

/// Whether `future` is still pending after a short wait.
template <typename T> bool stillBlocked(std::future<T> &future) {
  return future.wait_for(50ms) == std::future_status::timeout;
}

} // namespace

TEST_CASE("under leakcheck, the streams and events never released are "
          "named by the ops that made them",
          "[stream][event][leak]") {
  setEnabledChecks(CheckSet(static_cast<uint8_t>(Check::Leakcheck)));
  StreamManager manager;
  void *kept = nullptr, *released = nullptr, *event = nullptr;
  void *destroyed = nullptr;
  REQUIRE_OK(manager.createStream(kept, "gpu.wait@a.mlir:1:1"));
  REQUIRE_OK(manager.createStream(released, "gpu.wait@a.mlir:2:1"));
  REQUIRE_OK(manager.createEvent(event, "async.yield@a.mlir:3:1"));
  REQUIRE_OK(manager.createEvent(destroyed, "async.yield@a.mlir:4:1"));
  // Taken as a dependency: released.
  REQUIRE_OK(manager.join(kept, released));
  REQUIRE_OK(manager.destroyEvent(destroyed));
  std::vector<StreamManager::Unreleased> handles = manager.unreleasedHandles();
  REQUIRE(handles.size() == 2);
  CHECK_FALSE(handles[0].isEvent);
  CHECK(handles[0].loc == "gpu.wait@a.mlir:1:1");
  CHECK(handles[1].isEvent);
  CHECK(handles[1].loc == "async.yield@a.mlir:3:1");
  REQUIRE_OK(manager.releaseToken(kept));
  REQUIRE_OK(manager.releaseToken(event));
  CHECK(manager.unreleasedHandles().empty());
  setEnabledChecks(CheckSet());
  // Without leakcheck, nothing is kept.
  void *unnamed = nullptr;
  REQUIRE_OK(manager.createStream(unnamed, "gpu.wait@a.mlir:5:1"));
  CHECK(manager.unreleasedHandles().empty());
}

TEST_CASE("a stream runs its tasks in the order they were enqueued",
          "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  // Touched only by the worker until synchronize returns.
  std::vector<int> order;
  const int count = 20000;
  for (int i = 0; i < count; ++i)
    enqueueAction(streams, stream, [&order, i] { order.push_back(i); });
  REQUIRE_OK(streams.synchronize(stream));
  std::vector<int> expected(count);
  for (int i = 0; i < count; ++i)
    expected[i] = i;
  CHECK(order == expected);
}

TEST_CASE("enqueue returns before the task runs", "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  Gate gate;
  std::atomic<int> done{0};
  enqueueGated(streams, stream, gate, [&] { ++done; });
  enqueueAction(streams, stream, [&] { ++done; });
  // Both enqueues returned while the first task is held at its gate.
  std::this_thread::sleep_for(20ms);
  CHECK(done == 0);
  gate.open();
  REQUIRE_OK(streams.synchronize(stream));
  CHECK(done == 2);
}

TEST_CASE("synchronize blocks until the stream's work is done", "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  Gate gate;
  int value = 0; // plain int: synchronize must order it for the test thread
  enqueueGated(streams, stream, gate, [&] { value = 5; });
  auto synchronized = std::async(std::launch::async,
                                 [&] { return streams.synchronize(stream); });
  CHECK(stillBlocked(synchronized));
  gate.open();
  REQUIRE_OK(synchronized.get());
  CHECK(value == 5);
}

TEST_CASE("a stream that waits for an event of another stream sees that "
          "stream's work",
          "[stream][event]") {
  StreamManager streams;
  void *a = createStream(streams);
  void *b = createStream(streams);
  void *event = createEvent(streams);
  Gate gate;
  int value = 0;
  std::atomic<int> observed{-1};
  enqueueGated(streams, a, gate, [&] { value = 42; });
  REQUIRE_OK(streams.recordEvent(event, a));
  REQUIRE_OK(streams.waitEvent(b, event));
  enqueueAction(streams, b, [&] { observed = value; });
  // B is held behind A's gate; the test thread was not blocked.
  std::this_thread::sleep_for(20ms);
  CHECK(observed == -1);
  gate.open();
  REQUIRE_OK(streams.synchronize(b));
  CHECK(observed == 42);
  REQUIRE_OK(streams.synchronizeEvent(event));
  REQUIRE_OK(streams.destroyEvent(event));
}

TEST_CASE("a wait uses the event's record as of the call", "[stream][event]") {
  StreamManager streams;
  void *a = createStream(streams);
  void *b = createStream(streams);
  void *event = createEvent(streams);
  Gate first, second;
  enqueueGated(streams, a, first);
  REQUIRE_OK(streams.recordEvent(event, a));
  REQUIRE_OK(streams.waitEvent(b, event));
  // Recording again moves the event, but not B's wait.
  enqueueGated(streams, a, second);
  REQUIRE_OK(streams.recordEvent(event, a));
  std::atomic<bool> ran{false};
  enqueueAction(streams, b, [&] { ran = true; });
  first.open();
  REQUIRE_OK(streams.synchronize(b));
  CHECK(ran);
  // The event itself now waits for the second task.
  auto synchronized = std::async(
      std::launch::async, [&] { return streams.synchronizeEvent(event); });
  CHECK(stillBlocked(synchronized));
  second.open();
  REQUIRE_OK(synchronized.get());
}

TEST_CASE("an event never recorded completes at once", "[stream][event]") {
  StreamManager streams;
  void *a = createStream(streams);
  void *b = createStream(streams);
  void *event = createEvent(streams);
  Gate gate;
  enqueueGated(streams, a, gate);
  REQUIRE_OK(streams.synchronizeEvent(event));
  REQUIRE_OK(streams.waitEvent(b, event));
  std::atomic<bool> ran{false};
  enqueueAction(streams, b, [&] { ran = true; });
  REQUIRE_OK(streams.synchronize(b));
  CHECK(ran);
  gate.open();
}

TEST_CASE("an event recorded on the null stream waits for every stream",
          "[stream][event]") {
  StreamManager streams;
  void *a = createStream(streams);
  void *b = createStream(streams);
  void *event = createEvent(streams);
  Gate gateA, gateB;
  enqueueGated(streams, a, gateA);
  enqueueGated(streams, b, gateB);
  REQUIRE_OK(streams.recordEvent(event, nullptr));
  auto synchronized = std::async(
      std::launch::async, [&] { return streams.synchronizeEvent(event); });
  gateA.open();
  CHECK(stillBlocked(synchronized));
  gateB.open();
  REQUIRE_OK(synchronized.get());
}

TEST_CASE("bad event handles are errors", "[stream][event]") {
  StreamManager streams;
  void *stream = createStream(streams);
  void *event = createEvent(streams);
  REQUIRE_OK(streams.destroyEvent(event));
  REQUIRE_ERROR(streams.synchronizeEvent(event),
                "the event " + formatPointer(event) + " was already destroyed");
  REQUIRE_ERROR(streams.destroyEvent(event), "was already destroyed");
  REQUIRE_ERROR(streams.recordEvent(stream, stream), "invalid event handle " +
                                                         formatPointer(stream) +
                                                         ": it is a stream");
  REQUIRE_ERROR(streams.waitEvent(stream, reinterpret_cast<void *>(999)),
                "invalid event handle 0x3e7: no event was created with it");
}

TEST_CASE("a join makes the stream wait for the dependency, then releases "
          "the dependency",
          "[stream][join]") {
  StreamManager streams;
  void *stream = createStream(streams);
  void *dependency = createStream(streams);
  Gate gate;
  int value = 0;
  std::atomic<int> observed{-1};
  enqueueGated(streams, dependency, gate, [&] { value = 7; });
  // Does not block: the dependency is still held at its gate.
  REQUIRE_OK(streams.join(stream, dependency));
  enqueueAction(streams, stream, [&] { observed = value; });
  REQUIRE_ERROR(streams.enqueue(
                    dependency, [] { return Status(); }, "gpu.memcpy"),
                kReleased);
  std::this_thread::sleep_for(20ms);
  CHECK(observed == -1);
  gate.open();
  REQUIRE_OK(streams.synchronize(stream));
  CHECK(observed == 7);
  // The released dependency still answers synchronize and destroy.
  REQUIRE_OK(streams.synchronize(dependency));
  REQUIRE_OK(streams.destroy(dependency));
  // Joining a stream with itself changes nothing.
  REQUIRE_OK(streams.join(stream, stream));
  enqueueAction(streams, stream, [] {});
  // A released dependency may be joined again: its work is all done or
  // queued.
  REQUIRE_OK(streams.join(stream, dependency));
  REQUIRE_OK(streams.synchronize(stream));
}

TEST_CASE("a join into the null stream waits on the calling thread",
          "[stream][join]") {
  StreamManager streams;
  void *dependency = createStream(streams);
  Gate gate;
  int value = 0;
  enqueueGated(streams, dependency, gate, [&] { value = 3; });
  DelayedOpener opener(gate, 30ms);
  REQUIRE_OK(streams.join(nullptr, dependency));
  CHECK(value == 3);
  REQUIRE_ERROR(streams.enqueue(
                    dependency, [] { return Status(); }, "gpu.memcpy"),
                kReleased);
}

TEST_CASE("a released stream finishes its work; only new work on it is an "
          "error",
          "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  Gate gate;
  std::atomic<bool> ran{false};
  enqueueGated(streams, stream, gate, [&] { ran = true; });
  // Destroy does not wait for the gated task.
  REQUIRE_OK(streams.destroy(stream));
  CHECK_FALSE(ran);
  Status status =
      streams.enqueue(stream, [] { return Status(); }, "gpu.memcpy");
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == kReleased);
  REQUIRE_ERROR(streams.checkEnqueue(stream), kReleased);
  // Synchronize on the draining stream waits for the drain.
  auto synchronized = std::async(std::launch::async,
                                 [&] { return streams.synchronize(stream); });
  CHECK(stillBlocked(synchronized));
  gate.open();
  REQUIRE_OK(synchronized.get());
  CHECK(ran);
  // Once reclaimed, synchronize and destroy are still no-ops.
  while (streams.streamCount() != 0)
    std::this_thread::yield();
  REQUIRE_OK(streams.synchronize(stream));
  REQUIRE_OK(streams.destroy(stream));
  REQUIRE_ERROR(streams.enqueue(
                    stream, [] { return Status(); }, "gpu.memcpy"),
                kReleased);
}

TEST_CASE("destroying a released stream again waits for its work", "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  Gate gate;
  std::atomic<bool> ran{false};
  enqueueGated(streams, stream, gate, [&] { ran = true; });
  REQUIRE_OK(streams.destroy(stream));
  auto destroyed =
      std::async(std::launch::async, [&] { return streams.destroy(stream); });
  CHECK(stillBlocked(destroyed));
  gate.open();
  REQUIRE_OK(destroyed.get());
  CHECK(ran);
}

TEST_CASE("handles are sequential ids, never reused; unknown ones are "
          "invalid",
          "[stream]") {
  StreamManager streams;
  void *first = createStream(streams);
  void *event = createEvent(streams);
  void *second = createStream(streams);
  CHECK(reinterpret_cast<uintptr_t>(first) == 1);
  CHECK(reinterpret_cast<uintptr_t>(event) == 2);
  CHECK(reinterpret_cast<uintptr_t>(second) == 3);
  REQUIRE_OK(streams.destroy(first));
  while (streams.streamCount() != 1)
    std::this_thread::yield();
  void *third = createStream(streams);
  CHECK(reinterpret_cast<uintptr_t>(third) == 4);

  void *unknown = reinterpret_cast<void *>(12345);
  REQUIRE_ERROR(streams.enqueue(
                    unknown, [] { return Status(); }, "gpu.memcpy"),
                "invalid stream handle 0x3039: no stream was created with it");
  REQUIRE_ERROR(streams.synchronize(unknown), "invalid stream handle 0x3039");
  REQUIRE_ERROR(streams.destroy(unknown), "invalid stream handle 0x3039");
  REQUIRE_ERROR(streams.join(second, unknown), "invalid stream handle 0x3039");
  REQUIRE_ERROR(streams.join(unknown, second), "invalid stream handle 0x3039");
  REQUIRE_ERROR(streams.synchronize(event),
                "invalid stream handle 0x2: it is an event");
  REQUIRE_ERROR(streams.destroy(nullptr), "cannot destroy the null stream");
}

TEST_CASE("a synchronous op waits for every stream, then runs on the caller",
          "[stream]") {
  StreamManager streams;
  void *a = createStream(streams);
  void *b = createStream(streams);
  Gate gateA, gateB;
  int valueA = 0, valueB = 0;
  enqueueGated(streams, a, gateA, [&] { valueA = 1; });
  enqueueGated(streams, b, gateB, [&] { valueB = 2; });
  // A released stream that is still draining counts too.
  REQUIRE_OK(streams.destroy(b));
  DelayedOpener openA(gateA, 20ms), openB(gateB, 40ms);
  std::thread::id ranOn;
  int sum = 0;
  REQUIRE_OK(streams.enqueue(
      nullptr,
      [&] {
        ranOn = std::this_thread::get_id();
        sum = valueA + valueB;
        return Status();
      },
      "gpu.memcpy"));
  CHECK(sum == 3);
  CHECK(ranOn == std::this_thread::get_id());
}

TEST_CASE("a synchronous op returns its own task's failure", "[stream]") {
  StreamManager streams;
  Status status = streams.enqueue(
      nullptr, [] { return Status::error("bad"); }, "gpu.memcpy");
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "bad");
  CHECK(status.loc().empty());
}

TEST_CASE("a task's failure is reported at the next synchronization, with "
          "the task's location",
          "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  std::atomic<bool> ranAfter{false};
  REQUIRE_OK(streams.enqueue(
      stream, [] { return Status::error("the kernel faulted"); },
      "gpu.launch_func@k.mlir:4:2"));
  enqueueAction(streams, stream, [&] { ranAfter = true; });
  Status status = streams.synchronize(stream);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "the kernel faulted");
  CHECK(status.loc() == "gpu.launch_func@k.mlir:4:2");
  // Later work on a failed stream is skipped, as on a GPU.
  CHECK_FALSE(ranAfter);
  REQUIRE_ERROR(streams.synchronizeAll(), "the kernel faulted");
  REQUIRE_ERROR(streams.enqueue(
                    nullptr, [] { return Status(); }, "gpu.memcpy"),
                "the kernel faulted");
}

TEST_CASE("a failure on a released stream is still reported", "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  REQUIRE_OK(streams.enqueue(
      stream, [] { return Status::error("late failure"); },
      "gpu.launch_func@k.mlir:8:2"));
  REQUIRE_OK(streams.destroy(stream));
  while (streams.streamCount() != 0)
    std::this_thread::yield();
  Status status = streams.synchronize(stream);
  CHECK(status.loc() == "gpu.launch_func@k.mlir:8:2");
  REQUIRE_ERROR(status, "late failure");
  REQUIRE_ERROR(streams.synchronizeAll(), "late failure");
  REQUIRE_ERROR(streams.shutdown(), "late failure");
  // Shutdown reported it; the manager starts clean.
  REQUIRE_OK(streams.synchronizeAll());
}

TEST_CASE("the worker of a reclaimed stream serves the next new stream",
          "[stream]") {
  StreamManager streams;
  int total = 0;
  for (int i = 0; i < 200; ++i) {
    void *stream = createStream(streams);
    enqueueAction(streams, stream, [&] { ++total; });
    REQUIRE_OK(streams.destroy(stream));
    while (streams.streamCount() != 0)
      std::this_thread::yield();
  }
  REQUIRE_OK(streams.synchronizeAll());
  CHECK(total == 200);
  CHECK(streams.workerCount() == 1);
}

TEST_CASE("streams created and destroyed without waiting all run their work",
          "[stream]") {
  StreamManager streams;
  std::atomic<int> total{0};
  for (int i = 0; i < 300; ++i) {
    void *stream = createStream(streams);
    enqueueAction(streams, stream, [&] { ++total; });
    REQUIRE_OK(streams.destroy(stream));
  }
  REQUIRE_OK(streams.synchronizeAll());
  CHECK(total == 300);
}

TEST_CASE("several threads can enqueue on several streams at once",
          "[stream]") {
  StreamManager streams;
  const int threads = 4, tasks = 2000;
  std::vector<std::vector<int>> seen(threads);
  std::vector<std::thread> enqueuers;
  std::atomic<int> failures{0};
  for (int t = 0; t < threads; ++t)
    enqueuers.emplace_back([&, t] {
      void *stream = nullptr;
      if (!streams.createStream(stream).ok())
        return (void)++failures;
      for (int i = 0; i < tasks; ++i)
        if (!streams
                 .enqueue(
                     stream,
                     [&, t, i] {
                       seen[t].push_back(i);
                       return Status();
                     },
                     "gpu.memcpy")
                 .ok())
          ++failures;
      // A synchronous op from each thread, while the others enqueue.
      if (!streams.enqueue(nullptr, [] { return Status(); }, "gpu.memcpy").ok())
        ++failures;
      if (!streams.synchronize(stream).ok() || !streams.destroy(stream).ok())
        ++failures;
    });
  for (std::thread &thread : enqueuers)
    thread.join();
  REQUIRE_OK(streams.synchronizeAll());
  CHECK(failures == 0);
  for (int t = 0; t < threads; ++t) {
    REQUIRE(seen[t].size() == tasks);
    bool inOrder = true;
    for (int i = 0; i < tasks; ++i)
      inOrder &= seen[t][i] == i;
    CHECK(inOrder);
  }
}

TEST_CASE("shutdown drains every stream and joins the workers", "[stream]") {
  StreamManager streams;
  void *a = createStream(streams);
  void *b = createStream(streams);
  Gate gate;
  std::atomic<int> done{0};
  enqueueGated(streams, a, gate, [&] { ++done; });
  enqueueAction(streams, b, [&] { ++done; });
  createEvent(streams);
  DelayedOpener opener(gate, 20ms);
  REQUIRE_OK(streams.shutdown());
  CHECK(done == 2);
  CHECK(streams.workerCount() == 0);
  CHECK(streams.streamCount() == 0);
  // Handles stay unique across a shutdown; old ones are released.
  void *c = createStream(streams);
  CHECK(reinterpret_cast<uintptr_t>(c) == 4);
  REQUIRE_ERROR(
      streams.enqueue(a, [] { return Status(); }, "gpu.memcpy"), kReleased);
}

//===----------------------------------------------------------------------===//
// Tokens: released streams and events stay valid dependencies, as the gpu
// dialect's tokens are values.
//===----------------------------------------------------------------------===//

TEST_CASE("a token whose stream was released gets a new stream that waits "
          "for what is left of its work",
          "[stream][token]") {
  StreamManager streams;
  void *token = createStream(streams);
  Gate gate;
  int value = 0;
  std::atomic<int> observed{-1};
  enqueueGated(streams, token, gate, [&] { value = 5; });
  REQUIRE_OK(streams.releaseToken(token));

  void *stream = nullptr;
  REQUIRE_OK(streams.streamFromToken(token, stream));
  CHECK(stream != token);
  enqueueAction(streams, stream, [&] { observed = value; });
  std::this_thread::sleep_for(20ms);
  CHECK(observed == -1);
  auto waited = std::async(std::launch::async,
                           [&] { return streams.synchronizeToken(token); });
  CHECK(stillBlocked(waited));
  gate.open();
  REQUIRE_OK(waited.get());
  REQUIRE_OK(streams.synchronizeToken(stream));
  CHECK(observed == 5);

  // A live stream is its own stream; a released one is its own event.
  void *same = nullptr;
  REQUIRE_OK(streams.streamFromToken(stream, same));
  CHECK(same == stream);
  void *event = nullptr;
  REQUIRE_OK(streams.eventFromToken(token, event));
  CHECK(event == token);
  REQUIRE_OK(streams.releaseToken(token));
  REQUIRE_OK(streams.releaseToken(stream));
}

TEST_CASE("a completed token waits for nothing, not for new work on the "
          "worker its stream had",
          "[stream][token]") {
  StreamManager streams;
  void *old = createStream(streams);
  enqueueAction(streams, old, [] {});
  REQUIRE_OK(streams.synchronizeToken(old));
  REQUIRE_OK(streams.releaseToken(old));
  while (streams.streamCount() != 0)
    std::this_thread::yield();
  // The new stream is served by the old one's worker and held at a gate.
  void *busy = createStream(streams);
  CHECK(streams.workerCount() == 1);
  Gate gate;
  enqueueGated(streams, busy, gate);

  void *stream = nullptr;
  REQUIRE_OK(streams.streamFromToken(old, stream));
  CHECK(stream != old);
  CHECK(stream != busy);
  std::atomic<bool> ran{false};
  enqueueAction(streams, stream, [&] { ran = true; });
  REQUIRE_OK(streams.synchronizeToken(stream));
  CHECK(ran);
  REQUIRE_OK(streams.synchronizeToken(old));
  REQUIRE_OK(streams.joinToken(stream, old));
  void *event = nullptr;
  REQUIRE_OK(streams.eventFromToken(old, event));
  CHECK(event == old);
  REQUIRE_OK(streams.releaseToken(old));
  // Only new work on the released stream itself is refused.
  REQUIRE_ERROR(
      streams.enqueue(old, [] { return Status(); }, "gpu.memcpy"), kReleased);
  gate.open();
  REQUIRE_OK(streams.releaseToken(busy));
  REQUIRE_OK(streams.releaseToken(stream));
}

TEST_CASE("an event token stays valid after its first use", "[stream][token]") {
  StreamManager streams;
  void *producer = createStream(streams);
  Gate gate;
  std::atomic<bool> produced{false};
  enqueueGated(streams, producer, gate, [&] { produced = true; });
  void *event = nullptr;
  REQUIRE_OK(streams.eventFromToken(producer, event));
  REQUIRE(streams.isEvent(event));
  REQUIRE_OK(streams.releaseToken(producer));

  // The first use releases the event; the second one still waits for it.
  std::atomic<int> sawProduced{0};
  for (int use = 0; use < 2; ++use) {
    void *stream = nullptr;
    REQUIRE_OK(streams.streamFromToken(event, stream));
    CHECK_FALSE(streams.isEvent(stream));
    enqueueAction(streams, stream, [&] { sawProduced += produced ? 1 : 0; });
    REQUIRE_OK(streams.releaseToken(stream));
  }
  void *joined = createStream(streams);
  REQUIRE_OK(streams.joinToken(joined, event));
  enqueueAction(streams, joined, [&] { sawProduced += produced ? 1 : 0; });
  void *again = nullptr;
  REQUIRE_OK(streams.eventFromToken(event, again));
  CHECK(again == event);
  // The event functions see it destroyed.
  REQUIRE_ERROR(streams.synchronizeEvent(event), "already destroyed");
  auto waited = std::async(std::launch::async,
                           [&] { return streams.synchronizeToken(event); });
  CHECK(stillBlocked(waited));
  gate.open();
  REQUIRE_OK(waited.get());
  REQUIRE_OK(streams.synchronizeAll());
  CHECK(sawProduced == 3);
  REQUIRE_OK(streams.releaseToken(event));
  REQUIRE_OK(streams.releaseToken(joined));
}

TEST_CASE("released events are forgotten once their work is done",
          "[stream][token]") {
  StreamManager streams;
  void *producer = createStream(streams);
  Gate gate;
  enqueueGated(streams, producer, gate);
  // Released while their record still runs: kept for later uses.
  std::vector<void *> running;
  for (int i = 0; i < 10; ++i) {
    void *event = nullptr;
    REQUIRE_OK(streams.eventFromToken(producer, event));
    REQUIRE_OK(streams.releaseToken(event));
    running.push_back(event);
  }
  CHECK(streams.eventCount() == 10);
  gate.open();
  REQUIRE_OK(streams.synchronizeToken(producer));
  // Released once done: forgotten at once; the ones kept go in a sweep.
  for (int i = 0; i < 200; ++i) {
    void *event = nullptr;
    REQUIRE_OK(streams.eventFromToken(producer, event));
    REQUIRE_OK(streams.releaseToken(event));
  }
  CHECK(streams.eventCount() == 10);
  Gate second;
  enqueueGated(streams, producer, second);
  for (int i = 0; i < 60; ++i) {
    void *event = nullptr;
    REQUIRE_OK(streams.eventFromToken(producer, event));
    REQUIRE_OK(streams.releaseToken(event));
  }
  CHECK(streams.eventCount() < 64);
  for (void *event : running)
    REQUIRE_OK(streams.synchronizeToken(event));
  second.open();
  REQUIRE_OK(streams.releaseToken(producer));
}

// The worker pops tasks without the manager's mutex, spins on an empty
// queue for a while, then sleeps until a push or a release wakes it; a
// waiter and the worker meet through the completed count and the waiter's
// mark (StreamManager::waitFor). These tests exercise each hand-over.

TEST_CASE("a worker that went to sleep is woken by the next push", "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  int ran = 0; // plain int: synchronize orders it for the test thread
  for (int round = 0; round < 3; ++round) {
    // Long past the worker's spin: it sleeps when the next task comes.
    std::this_thread::sleep_for(100ms);
    enqueueAction(streams, stream, [&] { ++ran; });
    REQUIRE_OK(streams.synchronize(stream));
    CHECK(ran == round + 1);
  }
  // A release alone wakes it too: the stream is reclaimed.
  std::this_thread::sleep_for(100ms);
  REQUIRE_OK(streams.destroy(stream));
  while (streams.streamCount() != 0)
    std::this_thread::yield();
  CHECK(streams.workerCount() == 1);
}

TEST_CASE("synchronizing right after each enqueue never misses the wake-up",
          "[stream]") {
  // Each synchronize races the worker finishing the task it waits for:
  // the worker may be spinning, running, or asleep.
  StreamManager streams;
  void *stream = createStream(streams);
  int value = 0;
  for (int i = 0; i < 20000; ++i) {
    enqueueAction(streams, stream, [&value, i] { value = i; });
    REQUIRE_OK(streams.synchronize(stream));
    REQUIRE(value == i);
    if (i % 5000 == 4999)
      std::this_thread::sleep_for(50ms); // let it fall asleep now and then
  }
}

TEST_CASE("waits across streams hand over many small tasks in order",
          "[stream][event]") {
  StreamManager streams;
  void *producer = createStream(streams);
  void *consumer = createStream(streams);
  void *event = createEvent(streams);
  // Slot i is written by the producer's worker before the i-th record of
  // the event, and read by the consumer's worker after its i-th wait for
  // it: plain memory, which the wait must order.
  const int rounds = 2000;
  std::vector<int> written(rounds, 0);
  std::vector<int> seen(rounds, 0);
  for (int i = 0; i < rounds; ++i) {
    enqueueAction(streams, producer, [&written, i] { written[i] = i + 1; });
    REQUIRE_OK(streams.recordEvent(event, producer));
    REQUIRE_OK(streams.waitEvent(consumer, event));
    enqueueAction(streams, consumer,
                  [&written, &seen, i] { seen[i] = written[i]; });
  }
  REQUIRE_OK(streams.synchronizeAll());
  bool allSeen = true;
  for (int i = 0; i < rounds; ++i)
    allSeen &= seen[i] == i + 1;
  CHECK(allSeen);
}

TEST_CASE("a sticky failure skips every later task, however they arrive",
          "[stream]") {
  StreamManager streams;
  void *stream = createStream(streams);
  std::atomic<int> ranBefore{0}, ranAfter{0};
  // Enough tasks to span several of the queue's blocks, the failure in the
  // middle of one.
  for (int i = 0; i < 100; ++i)
    enqueueAction(streams, stream, [&] { ++ranBefore; });
  REQUIRE_OK(streams.enqueue(
      stream, [] { return Status::error("the copy faulted"); },
      "gpu.memcpy@f.mlir:3:1"));
  for (int i = 0; i < 100; ++i)
    enqueueAction(streams, stream, [&] { ++ranAfter; });
  // More after the worker went to sleep on the failed stream.
  std::this_thread::sleep_for(100ms);
  for (int i = 0; i < 100; ++i)
    enqueueAction(streams, stream, [&] { ++ranAfter; });
  Status status = streams.synchronize(stream);
  CHECK(status.loc() == "gpu.memcpy@f.mlir:3:1");
  REQUIRE_ERROR(status, "the copy faulted");
  CHECK(ranBefore == 100);
  CHECK(ranAfter == 0);
}

TEST_CASE("threads enqueuing on one stream each keep their order", "[stream]") {
  // Pushes are serialized by the manager's mutex, the queue's one
  // producer at a time.
  StreamManager streams;
  void *stream = createStream(streams);
  const int threads = 4, perThread = 5000;
  std::vector<std::vector<int>> order(threads); // touched by the worker only
  std::vector<std::thread> enqueuers;
  std::atomic<int> failures{0};
  for (int t = 0; t < threads; ++t)
    enqueuers.emplace_back([&, t] {
      for (int i = 0; i < perThread; ++i)
        if (!streams
                 .enqueue(
                     stream,
                     [&order, t, i] {
                       order[t].push_back(i);
                       return Status();
                     },
                     "gpu.memcpy")
                 .ok())
          ++failures;
    });
  for (std::thread &thread : enqueuers)
    thread.join();
  REQUIRE_OK(streams.synchronize(stream));
  CHECK(failures == 0);
  std::vector<int> expected(perThread);
  for (int i = 0; i < perThread; ++i)
    expected[i] = i;
  for (int t = 0; t < threads; ++t)
    CHECK(order[t] == expected);
}

TEST_CASE("a task's captures are destroyed before it counts as done",
          "[stream]") {
  // What a task captured (a kernel's arguments, a freed allocation's
  // record) is gone once a wait for the task returns.
  struct SlowToDestroy {
    explicit SlowToDestroy(std::atomic<int> *destroyed)
        : destroyed(destroyed) {}
    SlowToDestroy(SlowToDestroy &&other) noexcept
        : destroyed(std::exchange(other.destroyed, nullptr)) {}
    ~SlowToDestroy() {
      if (!destroyed)
        return;
      // Gives a wrong implementation, that counts the task first, the time
      // to let the wait return.
      std::this_thread::sleep_for(20ms);
      ++*destroyed;
    }
    std::atomic<int> *destroyed;
  };
  StreamManager streams;
  void *stream = createStream(streams);
  std::atomic<int> destroyed{0};
  for (int i = 0; i < 3; ++i) {
    REQUIRE_OK(streams.enqueue(
        stream, [guard = SlowToDestroy(&destroyed)] { return Status(); },
        "gpu.memcpy"));
    REQUIRE_OK(streams.synchronize(stream));
    CHECK(destroyed == i + 1);
  }
}

TEST_CASE("stream tasks keep small captures in place and large ones on the "
          "heap, and destroy each once",
          "[stream]") {
  auto counter = std::make_shared<int>(0);
  SECTION("small") {
    StreamTask task([counter] {
      ++*counter;
      return Status();
    });
    CHECK(counter.use_count() == 2);
    StreamTask moved(std::move(task));
    CHECK_FALSE(task);
    CHECK(counter.use_count() == 2);
    REQUIRE_OK(moved());
    CHECK(*counter == 1);
    moved = nullptr;
    CHECK_FALSE(moved);
    CHECK(counter.use_count() == 1);
  }
  SECTION("large") {
    std::array<char, 200> payload{};
    payload[199] = 7;
    StreamTask task([counter, payload] {
      *counter += payload[199];
      return Status::error("large");
    });
    CHECK(counter.use_count() == 2);
    StreamTask moved;
    moved = std::move(task);
    CHECK_FALSE(task);
    CHECK(counter.use_count() == 2);
    REQUIRE_ERROR(moved(), "large");
    CHECK(*counter == 7);
  }
  CHECK(counter.use_count() == 1);
}

TEST_CASE("the stream an enqueue found last is not taken for another, nor "
          "once it is released or reclaimed",
          "[stream]") {
  StreamManager streams;
  void *first = createStream(streams);
  void *second = createStream(streams);
  std::vector<int> order;
  // Alternating streams: each enqueue lands on the stream it names.
  enqueueAction(streams, first, [&] { order.push_back(1); });
  REQUIRE_OK(streams.synchronize(first));
  enqueueAction(streams, second, [&] { order.push_back(2); });
  REQUIRE_OK(streams.synchronize(second));
  enqueueAction(streams, first, [&] { order.push_back(3); });
  REQUIRE_OK(streams.synchronize(first));
  CHECK(order == std::vector<int>{1, 2, 3});
  // An event's id is not a stream, whatever was found before it.
  void *event = createEvent(streams);
  REQUIRE_OK(streams.checkEnqueue(second));
  REQUIRE_ERROR(streams.checkEnqueue(event), "invalid stream handle " +
                                                 formatPointer(event) +
                                                 ": it is an event");

  // Released right after it was found: refused, and a token of it gets a
  // new stream.
  Gate gate;
  enqueueGated(streams, second, gate);
  REQUIRE_OK(streams.join(first, second));
  REQUIRE_ERROR(streams.checkEnqueue(second), kReleased);
  REQUIRE_ERROR(streams.enqueue(
                    second, [] { return Status(); }, "gpu.memcpy"),
                kReleased);
  void *fromToken = nullptr;
  REQUIRE_OK(streams.streamFromToken(second, fromToken));
  CHECK(fromToken != second);
  REQUIRE_OK(streams.checkEnqueue(fromToken));
  gate.open();

  // Reclaimed after it was found: still refused, and not used.
  REQUIRE_OK(streams.checkEnqueue(first));
  REQUIRE_OK(streams.destroy(first));
  REQUIRE_OK(streams.destroy(fromToken));
  while (streams.streamCount() != 0)
    std::this_thread::yield();
  REQUIRE_ERROR(streams.checkEnqueue(first), kReleased);
  REQUIRE_ERROR(
      streams.enqueue(first, [] { return Status(); }, "gpu.memcpy"), kReleased);
  void *third = createStream(streams);
  enqueueAction(streams, third, [&] { order.push_back(4); });
  REQUIRE_OK(streams.synchronize(third));
  CHECK(order == std::vector<int>{1, 2, 3, 4});
  REQUIRE_OK(streams.destroy(third));
}

TEST_CASE("an async access is pending until the host waits for a token "
          "that covers it",
          "[stream][hazard]") {
  StreamHazards hazards;
  hazards.reset(/*enabled=*/true);
  char buffer[64];
  void *streamA = reinterpret_cast<void *>(1);
  void *streamB = reinterpret_cast<void *>(2);
  void *event = reinterpret_cast<void *>(3);
  const char *copy = "gpu.memcpy@a.mlir:5:3";
  hazards.noteAccess(streamA, buffer, 32, /*write=*/true, copy);
  hazards.noteAccess(streamB, buffer + 32, 32, /*write=*/false, copy);
  CHECK(hazards.findHazard(buffer + 8, /*write=*/false) == copy);
  CHECK(hazards.findHazard(buffer + 40, /*write=*/false) == nullptr);
  CHECK(hazards.findHazard(buffer + 40, /*write=*/true) == copy);
  CHECK(hazards.findHazard(buffer + 64, /*write=*/true) == nullptr);
  // A is joined into B, and B recorded as an event: waiting for the event
  // is waiting for both.
  hazards.cover(streamA, streamB);
  hazards.cover(streamB, event);
  hazards.observe(reinterpret_cast<void *>(9)); // another token
  CHECK(hazards.findHazard(buffer, /*write=*/false) == copy);
  hazards.observe(event);
  CHECK(hazards.findHazard(buffer, /*write=*/true) == nullptr);
  CHECK(hazards.findHazard(buffer + 40, /*write=*/true) == nullptr);
  // Waiting for every stream forgets everything.
  hazards.noteAccess(streamA, buffer, 8, /*write=*/true, copy);
  hazards.observe(nullptr);
  CHECK(hazards.findHazard(buffer, /*write=*/false) == nullptr);
}

TEST_CASE("an access on a stream conflicts with a pending one that the "
          "stream is not ordered after",
          "[stream][hazard]") {
  StreamHazards hazards;
  hazards.reset(/*enabled=*/true);
  char buffer[64];
  auto at = [&](int offset) {
    return reinterpret_cast<uintptr_t>(buffer) + offset;
  };
  void *streamA = reinterpret_cast<void *>(1);
  void *streamB = reinterpret_cast<void *>(2);
  void *streamC = reinterpret_cast<void *>(3);
  const char *fill = "gpu.memset@a.mlir:5:3";
  const char *copy = "gpu.memcpy@a.mlir:6:3";
  // Every other 8 bytes of the first 32, written on A.
  CHECK(!hazards.noteAccess(streamA, {{at(0), at(8)}, {at(16), at(24)}},
                            /*write=*/true, fill));
  // The gaps, on B: no byte in common.
  CHECK(!hazards.noteAccess(streamB, {{at(8), at(16)}, {at(24), at(32)}},
                            /*write=*/true, copy));
  // A read on A of bytes that A wrote: ordered after A's own work.
  CHECK(!hazards.noteAccess(streamA, buffer, 8, /*write=*/false, copy));
  // A read on C of bytes that A writes.
  StreamHazards::Conflict conflict =
      hazards.noteAccess(streamC, buffer + 20, 1, /*write=*/false, copy);
  CHECK(conflict.loc == fill);
  CHECK(conflict.write);
  // Two reads are no conflict; a write and a read are.
  CHECK(!hazards.noteAccess(streamA, buffer + 32, 16, /*write=*/false, copy));
  CHECK(!hazards.noteAccess(streamC, buffer + 40, 4, /*write=*/false, fill));
  conflict = hazards.noteAccess(streamB, buffer + 44, 1, /*write=*/true, fill);
  CHECK(conflict.loc == copy);
  CHECK(!conflict.write);
  // Once C is made to follow A and B (a join), it conflicts with neither;
  // nor once the host waited for everything.
  hazards.cover(streamA, streamC);
  hazards.cover(streamB, streamC);
  CHECK(!hazards.noteAccess(streamC, buffer, 64, /*write=*/true, copy));
  hazards.observe(nullptr);
  CHECK(!hazards.noteAccess(streamB, buffer, 64, /*write=*/true, copy));
}
