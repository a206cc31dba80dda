//===- TimePointsTest.cpp - Conformance: the run record's time points ----===//
//
// The points --trace and --print-statistics time a stream's ops with
// (Runtime::recordTimePoint): reached when the stream gets there, on the
// host's steady clock, read once, never waited for, and still readable
// after finalize.
//
//===----------------------------------------------------------------------===//

#include "unittests/wrappers/conformance/Conformance.h"

#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::conformance;
using namespace gpu_runner::test;

TEST_CASE_METHOD(RuntimeFixture,
                 "a time point is read once its stream reached it, and once",
                 "[record][hold]") {
  void *stream = createStream();
  Gate &gate = hold(stream);
  void *point = nullptr;
  REQUIRE_OK(runtime.recordTimePoint(stream, point));
  REQUIRE(point != nullptr);
  int64_t ns = 0;
  // The stream is held before the point: not reached, and not waited for.
  CHECK_FALSE(runtime.takeTimePoint(point, ns));
  int64_t opened = getHostClockNs();
  gate.open();
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  int64_t done = getHostClockNs();
  REQUIRE(runtime.takeTimePoint(point, ns));
  // The host's clock: after the gate opened (the backend aligns its clock
  // with the host's within a few microseconds), and before the wait ended.
  CHECK(ns >= opened - 1000000);
  CHECK(ns <= done + 1000000);
  // Read once: the point is forgotten.
  int64_t again = 0;
  CHECK_FALSE(runtime.takeTimePoint(point, again));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "time points bracket a stream's work in order, on every "
                 "stream and the null stream, and outlive finalize",
                 "[record]") {
  void *stream = createStream();
  const uint64_t bytes = 4 << 20;
  void *device = allocate(bytes);
  std::vector<char> host(bytes, 1);
  int64_t before = getHostClockNs();
  void *begin = nullptr, *end = nullptr, *sync = nullptr;
  REQUIRE_OK(runtime.recordTimePoint(stream, begin));
  REQUIRE_OK(runtime.memcpy(device, host.data(), bytes, stream, kLoc));
  REQUIRE_OK(runtime.recordTimePoint(stream, end));
  // The null stream's point comes after all work enqueued so far.
  REQUIRE_OK(runtime.recordTimePoint(nullptr, sync));
  REQUIRE_OK(runtime.synchronize());
  int64_t after = getHostClockNs();
  int64_t beginNs = 0, endNs = 0, syncNs = 0;
  REQUIRE(runtime.takeTimePoint(begin, beginNs));
  REQUIRE(runtime.takeTimePoint(end, endNs));
  CHECK(beginNs >= before - 1000000);
  CHECK(beginNs <= endNs);
  CHECK(endNs <= after + 1000000);
  // The last point is read after finalize, which ends the device's work.
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
  REQUIRE_OK(runtime.free(device, nullptr, kLoc));
  std::vector<Runtime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  REQUIRE(runtime.takeTimePoint(sync, syncNs));
  CHECK(syncNs >= endNs);
  CHECK(syncNs <= after + 1000000);
}
