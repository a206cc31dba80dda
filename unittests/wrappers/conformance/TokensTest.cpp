//===- TokensTest.cpp - Conformance: streams, events and tokens -----------===//
//
// The program's async tokens as every backend must treat them: streams that
// take no more work once released, tokens that stay dependencies after a
// gpu.wait released them (the gpu dialect's tokens are values), and events,
// what a token becomes when it crosses an async.yield.
//
//===----------------------------------------------------------------------===//

#include "unittests/wrappers/conformance/Conformance.h"

#include <cstring>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::conformance;
using namespace gpu_runner::test;

TEST_CASE_METHOD(RuntimeFixture,
                 "asynchronous ops on a released stream are errors",
                 "[tokens]") {
  void *stream = createStream();
  void *device = allocate(16);
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
  const char *released = "the stream of this op's async dependency was "
                         "already released by a gpu.wait";
  char host[16];
  REQUIRE_ERROR(runtime.memcpy(host, device, 16, stream, "gpu.memcpy"),
                released);
  REQUIRE_ERROR(runtime.memset(device, 0, 1, 16, stream, "gpu.memset"),
                released);
  void *result = nullptr;
  REQUIRE_ERROR(runtime.allocate(16, stream, false, "gpu.alloc", result),
                released);
  REQUIRE_ERROR(runtime.free(device, stream, "gpu.dealloc"), released);
  // The failed free did not mark anything.
  REQUIRE_OK(runtime.free(device, nullptr, "gpu.dealloc"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a token is a dependency again after a gpu.wait released "
                 "it, as the lowering calls the runtime",
                 "[tokens]") {
  void *device = allocate(16);
  int32_t in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  // %t0 = gpu.wait async; %t1 = gpu.memcpy async [%t0] ...; gpu.wait [%t1]
  void *t0 = createStream();
  void *t1 = nullptr;
  REQUIRE_OK(runtime.streamFromToken(t0, t1, kLoc));
  CHECK(t1 == t0);
  REQUIRE_OK(runtime.memcpy(device, in, 16, t1, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(t1, kLoc));
  REQUIRE_OK(runtime.destroyStream(t1, kLoc));
  // %t2 = gpu.memcpy async [%t1] ...: a stream of its own.
  void *t2 = nullptr;
  REQUIRE_OK(runtime.streamFromToken(t1, t2, kLoc));
  CHECK(t2 != t1);
  REQUIRE_OK(runtime.memcpy(out, device, 16, t2, kLoc));
  // gpu.wait [%t2]; gpu.wait [%t1]
  REQUIRE_OK(runtime.synchronizeStream(t2, kLoc));
  REQUIRE_OK(runtime.destroyStream(t2, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(t1, kLoc));
  REQUIRE_OK(runtime.destroyStream(t1, kLoc));
  CHECK(std::memcmp(in, out, sizeof(in)) == 0);
  // Joined into a live stream, and yielded: it is its own event.
  void *live = createStream();
  REQUIRE_OK(runtime.joinStream(live, t1, kLoc));
  void *event = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(t1, event, kLoc));
  CHECK(event == t1);
  REQUIRE_OK(runtime.destroyStream(live, kLoc));
  // A handle no token ever had is still an error.
  void *never = reinterpret_cast<void *>(12345);
  void *stream = nullptr;
  REQUIRE_ERROR(runtime.streamFromToken(never, stream, kLoc),
                "invalid stream handle 0x3039");
  REQUIRE_ERROR(runtime.synchronizeStream(never, kLoc),
                "invalid stream handle 0x3039");
  REQUIRE_OK(runtime.free(device, nullptr, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a token that crossed an async.yield is an event: each "
                 "stream made from it waits for the work before it",
                 "[tokens][hold]") {
  void *producer = createStream();
  void *device = allocate(4 * 64);
  Gate &gate = hold(producer);
  REQUIRE_OK(runtime.memset(device, 7, 4, 64, producer, "gpu.memset"));

  // Two consumers of the same producer, each from an event of its own, as
  // gpu-async-region yields a token once per awaiting region.
  void *first = nullptr, *second = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(producer, first, kLoc));
  REQUIRE_OK(runtime.recordEventOnStream(producer, second, kLoc));
  CHECK(first != producer);
  CHECK(first != second);
  REQUIRE_OK(runtime.destroyStream(producer, kLoc));

  void *a = nullptr, *b = nullptr;
  REQUIRE_OK(runtime.streamFromToken(first, a, kLoc));
  REQUIRE_OK(runtime.streamFromToken(second, b, kLoc));
  CHECK(a != b);
  std::vector<uint32_t> seenByA(64, 0), seenByB(64, 0);
  REQUIRE_OK(runtime.memcpy(seenByA.data(), device, 4 * 64, a, "gpu.memcpy"));
  REQUIRE_OK(runtime.memcpy(seenByB.data(), device, 4 * 64, b, "gpu.memcpy"));
  gate.open();
  REQUIRE_OK(runtime.synchronizeStream(a, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(b, kLoc));
  CHECK(seenByA == std::vector<uint32_t>(64, 7));
  CHECK(seenByB == std::vector<uint32_t>(64, 7));
  REQUIRE_OK(runtime.destroyStream(a, kLoc));
  REQUIRE_OK(runtime.destroyStream(b, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "join, synchronize and destroy take an event where they "
                 "take a stream",
                 "[tokens]") {
  void *a = createStream();
  void *b = createStream();
  // A stream made from a stream is that stream.
  void *same = nullptr;
  REQUIRE_OK(runtime.streamFromToken(a, same, kLoc));
  CHECK(same == a);

  // An event is no stream: the ops that need one to run on refuse it.
  void *event = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(a, event, kLoc));
  CHECK(event != a);
  void *device = allocate(16);
  REQUIRE_ERROR(runtime.memset(device, 0, 1, 16, event, "gpu.memset"), "event");
  REQUIRE_OK(runtime.joinStream(b, event, kLoc));
  REQUIRE_OK(runtime.recordEventOnStream(a, event, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(event, kLoc));
  REQUIRE_OK(runtime.destroyStream(event, kLoc));
  REQUIRE_OK(runtime.destroyStream(a, kLoc));
  REQUIRE_OK(runtime.destroyStream(b, kLoc));
}
