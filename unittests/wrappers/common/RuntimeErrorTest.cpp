//===- RuntimeErrorTest.cpp - Diagnostics of the wrapper libraries --------===//
//
// The diagnostic format every runtime error and warning uses, and the
// process-level behaviour of a fatal error (exit status 1, program output
// flushed first, one error per process, a deadline).
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/RuntimeError.h"

#include "unittests/wrappers/TestSupport.h"

#include "wrappers/common/Sanitizers.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

using namespace gpu_runner;
using namespace gpu_runner::test;

TEST_CASE("diagnostics put the file location first and the op name after the "
          "severity",
          "[error]") {
  CHECK(formatDiagnostic("gpu.memcpy@file.mlir:12:5", "error", "boom") ==
        "file.mlir:12:5: error: gpu.memcpy: boom");
  CHECK(formatDiagnostic("gpu.alloc@dir/a@b.mlir:1:2", "warning", "leak") ==
        "dir/a@b.mlir:1:2: warning: gpu.alloc: leak");
  CHECK(formatDiagnostic("gpu.memcpy", "error", "boom") ==
        "error: gpu.memcpy: boom");
  CHECK(formatDiagnostic(nullptr, "error", "boom") == "error: boom");
  CHECK(formatDiagnostic("", "error", "boom") == "error: boom");
}

TEST_CASE("ops are named in messages with their location when they have one",
          "[error]") {
  CHECK(describeOp("gpu.alloc@f.mlir:3:5") == "gpu.alloc at f.mlir:3:5");
  CHECK(describeOp("gpu.alloc") == "gpu.alloc");
  CHECK(describeOp(static_cast<const char *>(nullptr)) == "an unknown op");
  CHECK(describeOp(std::string("gpu.dealloc@g.mlir:9:1")) ==
        "gpu.dealloc at g.mlir:9:1");
  CHECK(opName("gpu.memset@f.mlir:1:1") == "gpu.memset");
  CHECK(opName("gpu.memset") == "gpu.memset");
  CHECK(formatPointer(reinterpret_cast<void *>(0x1234)) == "0x1234");
}

TEST_CASE("a bad allocation is described by its sizes", "[error]") {
  const int64_t negative[] = {4, -2, -3};
  CHECK(describeBadAllocation(3, negative, 4) ==
        "cannot allocate 4 x -2 x -3 elements of 4 bytes: size -2 (dimension "
        "1) is negative");
  const int64_t huge[] = {int64_t(1) << 62};
  CHECK(describeBadAllocation(1, huge, 4) ==
        "cannot allocate 4611686018427387904 elements of 4 bytes: that is "
        "more bytes than an index can count (9223372036854775807)");
  const int64_t wrapping[] = {int64_t(1) << 32, (int64_t(1) << 32) + 1};
  CHECK(describeBadAllocation(2, wrapping, 4) ==
        "cannot allocate 4294967296 x 4294967297 elements of 4 bytes: that is "
        "more bytes than an index can count (9223372036854775807)");
  // Not bad at all: an empty allocation whose other sizes overflow.
  const int64_t empty[] = {int64_t(1) << 62, 0};
  CHECK(describeBadAllocation(2, empty, 8) ==
        "cannot allocate 4611686018427387904 x 0 elements of 8 bytes: a size "
        "is negative, or the bytes are more than an index can count");
}

TEST_CASE("a Status carries the location of the op it belongs to", "[error]") {
  Status ok;
  CHECK(ok.ok());
  Status error = Status::error("bad");
  CHECK_FALSE(error.ok());
  CHECK(error.message() == "bad");
  CHECK(error.loc().empty());
  Status elsewhere = Status::errorAt("gpu.memcpy@f.mlir:2:3", "late");
  CHECK_FALSE(elsewhere.ok());
  CHECK(elsewhere.loc() == "gpu.memcpy@f.mlir:2:3");
  CHECK(elsewhere.message() == "late");
}

TEST_CASE("a fatal error flushes the program's output, prints one line and "
          "exits with status 1",
          "[error]") {
  ChildResult result = runInChild([] {
    std::printf("printf output, no newline");
    std::cout << " and cout output";
    reportFatalError("gpu.memcpy@f.mlir:7:9", "something broke");
  });
  CHECK(result.exited);
  CHECK(result.exitStatus == 1);
  CHECK(result.out == "printf output, no newline and cout output");
  CHECK(result.err == "f.mlir:7:9: error: gpu.memcpy: something broke\n");
}

TEST_CASE("reportIfError uses the location a Status carries, if any",
          "[error]") {
  ChildResult result = runInChild([] {
    reportIfError(Status(), "gpu.wait@f.mlir:1:1");
    reportIfError(Status::errorAt("gpu.launch_func@k.mlir:4:2", "failed"),
                  "gpu.wait@f.mlir:9:1");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "k.mlir:4:2: error: gpu.launch_func: failed\n");

  result = runInChild(
      [] { reportIfError(Status::error("failed"), "gpu.wait@f.mlir:9:1"); });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "f.mlir:9:1: error: gpu.wait: failed\n");
}

TEST_CASE("a warning does not stop the program", "[error]") {
  ChildResult result = runInChild([] {
    reportWarning("gpu.alloc@f.mlir:2:2", "leaked");
    std::printf("still running\n");
  });
  CHECK(result.exitStatus == 0);
  CHECK(result.err == "f.mlir:2:2: warning: gpu.alloc: leaked\n");
  CHECK(result.out == "still running\n");
}

#ifndef GPU_RUNNER_TSAN // This child starts threads.
TEST_CASE("two threads that fail at once print one error, and a report that "
          "hangs still ends",
          "[error]") {
  ChildResult result = runInChild([] {
    // Without the fix the child hangs with both lines printed; SIGALRM's
    // default action then ends it.
    alarm(20);
    // A stream whose lock another thread holds: the first report hangs in
    // flushing every stream, until its deadline ends the process.
    FILE *other = std::tmpfile();
    std::fputs("unflushed", other);
    std::atomic<bool> locked{false};
    std::thread holder([&] {
      flockfile(other);
      locked = true;
      pause();
    });
    holder.detach();
    while (!locked)
      std::this_thread::yield();
    std::thread first(
        [] { reportFatalError("gpu.memcpy@c.mlir:4:3", "the first"); });
    first.detach();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    reportFatalError("gpu.memcpy@c.mlir:5:3", "the second");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "c.mlir:4:3: error: gpu.memcpy: the first\n");
}
#endif
