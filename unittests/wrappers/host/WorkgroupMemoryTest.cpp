//===- WorkgroupMemoryTest.cpp - A block's workgroup memory, fenced -------===//
//
// WorkgroupMemory: the block's bytes aligned and writable, the margins
// around them checked (exact messages, and whole again after a report; the
// far margin by checkFar), the
// pages past the margins inaccessible, a block without workgroup memory
// pointing into a guard; and BlockRunner reporting a kernel's store out of
// bounds at the end of its block, with and without fibers.
//
// Whether an address is accessible is asked of the kernel: write(2) from it
// fails with EFAULT where a load would fault.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/WorkgroupMemory.h"
#include "wrappers/host/HostKernels.h"

#include "unittests/wrappers/TestSupport.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <unistd.h>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

/// Whether the byte at `address` can be read, without touching it.
bool readable(const char *address) {
  int pipeEnds[2];
  REQUIRE(pipe(pipeEnds) == 0);
  bool ok = write(pipeEnds[1], address, 1) == 1;
  int error = errno;
  close(pipeEnds[0]);
  close(pipeEnds[1]);
  if (!ok)
    REQUIRE(error == EFAULT);
  return ok;
}

} // namespace

TEST_CASE("workgroup memory is aligned, writable and checked", "[workgroup]") {
  WorkgroupMemory memory;
  REQUIRE_OK(memory.prepare(64));
  char *data = memory.data();
  REQUIRE(data);
  CHECK(reinterpret_cast<uintptr_t>(data) % 64 == 0);
  CHECK(memory.size() == 64);
  std::memset(data, 1, 64);
  REQUIRE_OK(memory.check());
  CHECK(memory.reservedBegin() < data);
  CHECK(data + 64 < memory.reservedEnd());

  data[-1] = 0;
  CHECK(memory.check().message() ==
        "byte 1 before the start of the block's 64 bytes of workgroup memory");
  // The margins are whole again after a report.
  REQUIRE_OK(memory.check());

  std::memset(data - 32, 0, 4);
  CHECK(memory.check().message() == "bytes 32 to 29 before the start of the "
                                    "block's 64 bytes of workgroup memory");
  std::memset(data + 64, 0, 4);
  CHECK(memory.check().message() == "bytes 0 to 3 past the end of the "
                                    "block's 64 bytes of workgroup memory");
  data[-64] = 0;
  data[100] = 0;
  CHECK(memory.check().message() ==
        "byte 64 before the start and byte 36 past the end of the block's 64 "
        "bytes of workgroup memory");
  REQUIRE_OK(memory.check());
  // Further before the start: only the far margin's check sees it.
  std::memset(data - 400, 0, 4);
  REQUIRE_OK(memory.check());
  CHECK(memory.checkFar().message() == "bytes 400 to 397 before the start of "
                                       "the block's 64 bytes of workgroup "
                                       "memory");
  REQUIRE_OK(memory.checkFar());
  // A store that writes the pattern itself is not seen.
  data[64] = static_cast<char>(WorkgroupMemory::kPattern);
  REQUIRE_OK(memory.check());
}

TEST_CASE("workgroup memory is fenced by inaccessible pages", "[workgroup]") {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  WorkgroupMemory memory;
  REQUIRE_OK(memory.prepare(13));
  char *data = memory.data();
  // The bytes lie at the end of a page, with fewer than 128 bytes after
  // them up to a guard; the page before them starts after a guard.
  auto pageOf = [&](const char *address) {
    return reinterpret_cast<const char *>(reinterpret_cast<uintptr_t>(address) /
                                          page * page);
  };
  const char *pageStart = pageOf(data);
  CHECK(pageStart + page - (data + 13) < 128);
  CHECK(pageStart + page - (data + 13) >=
        static_cast<ptrdiff_t>(WorkgroupMemory::kMarginBytes));
  CHECK(readable(pageStart + page - 1));
  CHECK_FALSE(readable(pageStart + page));
  CHECK(readable(pageStart));
  CHECK_FALSE(readable(pageStart - 1));
  // An odd size: the byte right after it is checked.
  data[13] = 0;
  CHECK(memory.check().message() ==
        "byte 0 past the end of the block's 13 bytes of workgroup memory");

  // A larger block, then a smaller one: the pages the smaller one does not
  // need are inaccessible again.
  REQUIRE_OK(memory.prepare(3 * page));
  data = memory.data();
  data[3 * page - 1] = 1;
  CHECK(readable(data - WorkgroupMemory::kMarginBytes));
  REQUIRE_OK(memory.check());
  REQUIRE_OK(memory.prepare(16));
  data = memory.data();
  CHECK_FALSE(readable(pageOf(data) + page));
  CHECK_FALSE(readable(pageOf(data) - 1));
  REQUIRE_OK(memory.check());

  // The largest a block may have; more is refused.
  REQUIRE_OK(memory.prepare(WorkgroupMemory::kMaxBytes));
  data = memory.data();
  data[WorkgroupMemory::kMaxBytes - 1] = 1;
  REQUIRE_OK(memory.check());
  REQUIRE_ERROR(memory.prepare(WorkgroupMemory::kMaxBytes + 1),
                "the host backend maps at most 232463 for a block");
}

TEST_CASE("a block without workgroup memory points into a guard",
          "[workgroup]") {
  WorkgroupMemory memory;
  REQUIRE_OK(memory.prepare(256));
  // Contents stay while the size does, as between a GPU's blocks.
  memory.data()[0] = 42;
  REQUIRE_OK(memory.prepare(0));
  CHECK(memory.size() == 0);
  char *none = memory.data();
  CHECK_FALSE(readable(none));
  CHECK_FALSE(readable(none - 1));
  CHECK_FALSE(readable(none + 64 * 1024));
  CHECK_FALSE(readable(none - 64 * 1024));
  REQUIRE_OK(memory.check());
  REQUIRE_OK(memory.prepare(256));
  CHECK(memory.data()[0] == 42);
}

namespace {

/// Thread 0 writes the 4 bytes before the block's workgroup memory.
void storeBeforeStart(HostKernelContext *context, void *) {
  if (context->threadId[0] == 0)
    std::memset(static_cast<char *>(context->sharedMemory) - 4, 0, 4);
}

/// Each thread writes its byte of the dynamic part; thread 0 one more.
void storePastDynamicEnd(HostKernelContext *context, void *) {
  auto *dynamic = static_cast<char *>(context->dynamicSharedMemory);
  for (int64_t t = context->threadId[0]; t < context->blockDim[0]; ++t)
    dynamic[t] = 1;
  dynamic[context->dynamicSharedBytes] = 1;
}

} // namespace

TEST_CASE("a block that writes workgroup memory out of bounds fails",
          "[workgroup]") {
  BlockRunner runner;
  KernelLaunch launch;
  launch.entry = storeBeforeStart;
  launch.name = "k";
  launch.grid[0] = 3;
  launch.block[0] = 4;
  launch.staticSharedBytes = 20;
  REQUIRE(validateKernelLaunch(launch, 0).ok());
  CHECK(runner.run(launch, nullptr, 2).message() ==
        "kernel 'k': workgroup memory written out of bounds in block (2, 0, "
        "0): a store changed bytes 4 to 1 before the start of the block's 20 "
        "bytes of workgroup memory; run with --check-bounds to find the "
        "store");
  // As fibers: the kernel runs once per thread.
  launch.flags = kHostKernelUsesFibers;
  CHECK(runner.run(launch, nullptr, 1).message() ==
        "kernel 'k': workgroup memory written out of bounds in block (1, 0, "
        "0): a store changed bytes 4 to 1 before the start of the block's 20 "
        "bytes of workgroup memory; run with --check-bounds to find the "
        "store");

  // The dynamic part ends where the block's workgroup memory ends: 32
  // static bytes (a multiple of 16), then 8 dynamic ones.
  launch.entry = storePastDynamicEnd;
  launch.flags = 0;
  launch.block[0] = 8;
  launch.staticSharedBytes = 32;
  launch.dynamicSharedBytes = 8;
  CHECK(runner.run(launch, nullptr, 0).message() ==
        "kernel 'k': workgroup memory written out of bounds in block (0, 0, "
        "0): a store changed byte 0 past the end of the block's 40 bytes of "
        "workgroup memory; run with --check-bounds to find the store");
  launch.dynamicSharedBytes = 9;
  launch.entry = [](HostKernelContext *context, void *) {
    static_cast<char *>(context->dynamicSharedMemory)[8] = 1;
  };
  REQUIRE_OK(runner.run(launch, nullptr, 0));
}
