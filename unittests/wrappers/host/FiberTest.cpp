//===- FiberTest.cpp - GPU threads of one block as fibers -----------------===//
//
// Hand-written "kernels" with the signature the lowering emits, run as the
// fibers of one block on the test's thread: thread ids, barriers that really
// separate phases, shared-memory reductions, shuffles (xor butterfly, down
// with edge lanes, width below 32, a partial last subgroup), broadcasts
// among the lanes that reach them (in divergent code too), and every
// deadlock and misuse report, word for word. Then the same errors through
// the extern "C" functions, which end the process (in a child), and the
// cost of a barrier (a hidden benchmark: run with "[.benchmark]").
//
// Kernels must not use Catch2's assertions: they run on fibers. They record
// what they see in plain arrays that the test checks afterwards.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/Fibers.h"

#include "wrappers/MgpuAbi.h"

#include "unittests/wrappers/TestSupport.h"

#include <chrono>
#include <cstring>
#include <numeric>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

const char *const kBarrierA = "gpu.barrier@f.mlir:7:3";
const char *const kBarrierB = "gpu.barrier@f.mlir:9:5";
const char *const kShuffleA = "gpu.shuffle@f.mlir:12:9";
const char *const kShuffleB = "gpu.shuffle@f.mlir:14:9";
const char *const kBroadcastA = "gpu.subgroup_broadcast@f.mlir:16:9";
const char *const kBroadcastB = "gpu.subgroup_broadcast@f.mlir:18:9";
const char *const kGatherA = "gpu.subgroup_mma_compute@f.mlir:20:9";
const char *const kGatherB = "gpu.subgroup_mma_compute@f.mlir:22:9";

/// The context of a block, as BlockRunner makes it.
HostKernelContext blockContext(int64_t x, int64_t y = 1, int64_t z = 1,
                               void *shared = nullptr) {
  HostKernelContext context = {};
  context.blockDim[0] = x;
  context.blockDim[1] = y;
  context.blockDim[2] = z;
  for (int i = 0; i < 3; ++i)
    context.gridDim[i] = 1;
  context.sharedMemory = shared;
  context.dynamicSharedMemory = shared;
  return context;
}

int64_t linearId(const HostKernelContext *context) {
  return context->threadId[0] +
         context->blockDim[0] * (context->threadId[1] +
                                 context->blockDim[1] * context->threadId[2]);
}

int64_t threadCount(const HostKernelContext *context) {
  return context->blockDim[0] * context->blockDim[1] * context->blockDim[2];
}

void barrier(HostKernelContext *context, const char *loc = kBarrierA) {
  mgpuHostBarrierAt(context, loc);
}

uint64_t shuffle(HostKernelContext *context, uint64_t value, int64_t source,
                 int64_t width = 32, const char *loc = kShuffleA) {
  return mgpuHostShuffleAt(context, value, static_cast<int32_t>(source),
                           static_cast<int32_t>(width), loc);
}

/// gpu.subgroup_broadcast from `source`, -1 for the first active lane.
uint64_t broadcast(HostKernelContext *context, uint64_t value, int64_t source,
                   const char *loc = kBroadcastA) {
  return mgpuHostBroadcastAt(context, value, static_cast<int32_t>(source), loc);
}

/// A kernel's view of its test: plain arrays, indexed by linear thread id.
struct Record {
  std::vector<int64_t> values;
  std::vector<int64_t> ids;
  std::vector<HostKernelContext> contexts;
  std::vector<int64_t> shared;
  explicit Record(size_t threads, size_t sharedSize = 0)
      : values(threads, -1), ids(threads, -1), contexts(threads),
        shared(sharedSize, 0) {}
};

Record &recordOf(void *args) { return *static_cast<Record *>(args); }

} // namespace

TEST_CASE("each GPU thread runs once on its fiber with its own thread id",
          "[fibers]") {
  FiberBlock fibers;
  Record record(24);
  HostKernelContext block = blockContext(4, 3, 2);
  block.blockId[0] = 1;
  block.blockId[1] = 2;
  block.blockId[2] = 3;
  block.gridDim[0] = 5;
  auto kernel = [](HostKernelContext *context, void *args) {
    Record &record = recordOf(args);
    int64_t id = linearId(context);
    record.contexts[id] = *context;
    record.values[id] += 1;
  };
  REQUIRE_OK(fibers.run(kernel, &record, block, "k"));
  for (int64_t id = 0; id < 24; ++id) {
    INFO("thread " << id);
    const HostKernelContext &seen = record.contexts[id];
    CHECK(record.values[id] == 0);
    CHECK(seen.threadId[0] == id % 4);
    CHECK(seen.threadId[1] == id / 4 % 3);
    CHECK(seen.threadId[2] == id / 12);
    CHECK(seen.blockId[0] == 1);
    CHECK(seen.blockId[1] == 2);
    CHECK(seen.blockId[2] == 3);
    CHECK(seen.blockDim[2] == 2);
    CHECK(seen.gridDim[0] == 5);
    CHECK(seen.runtime != nullptr);
  }
  CHECK(fibers.stackCount() == 24);
}

TEST_CASE("a barrier separates the phases of a block", "[fibers]") {
  // Each round, every thread writes its slot, waits, reads its neighbour's,
  // waits. Without a real barrier a thread reads its neighbour's slot from
  // the round before (fibers run one after the other).
  FiberBlock fibers;
  constexpr int64_t kThreads = 64, kRounds = 10;
  Record record(kThreads * kRounds, kThreads);
  auto kernel = [](HostKernelContext *context, void *args) {
    Record &record = recordOf(args);
    int64_t id = linearId(context), n = threadCount(context);
    for (int64_t round = 0; round < kRounds; ++round) {
      record.shared[id] = round * 1000 + id;
      barrier(context);
      record.values[round * n + id] = record.shared[(id + 1) % n];
      barrier(context);
    }
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(8, 8), "k"));
  for (int64_t round = 0; round < kRounds; ++round)
    for (int64_t id = 0; id < kThreads; ++id) {
      INFO("round " << round << ", thread " << id);
      CHECK(record.values[round * kThreads + id] ==
            round * 1000 + (id + 1) % kThreads);
    }
}

TEST_CASE("a tree reduction over 256 threads in shared memory", "[fibers]") {
  FiberBlock fibers;
  std::vector<int64_t> shared(256);
  Record record(256);
  HostKernelContext block = blockContext(256, 1, 1, shared.data());
  auto kernel = [](HostKernelContext *context, void *args) {
    auto *data = static_cast<int64_t *>(context->sharedMemory);
    int64_t id = linearId(context);
    data[id] = id + 1;
    for (int64_t stride = 128; stride > 0; stride /= 2) {
      barrier(context);
      if (id < stride)
        data[id] += data[id + stride];
    }
    barrier(context);
    recordOf(args).values[id] = data[0];
  };
  REQUIRE_OK(fibers.run(kernel, &record, block, "reduce"));
  for (int64_t id = 0; id < 256; ++id) {
    INFO("thread " << id);
    CHECK(record.values[id] == 256 * 257 / 2);
  }
}

TEST_CASE("an xor butterfly of shuffles sums each subgroup in every lane",
          "[fibers]") {
  FiberBlock fibers;
  Record record(64);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t id = linearId(context), lane = id % 32;
    uint64_t value = static_cast<uint64_t>(lane);
    for (int64_t mask = 16; mask > 0; mask /= 2)
      value += shuffle(context, value, lane ^ mask);
    recordOf(args).values[id] = static_cast<int64_t>(value);
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(64), "butterfly"));
  for (int64_t id = 0; id < 64; ++id) {
    INFO("thread " << id);
    CHECK(record.values[id] == 32 * 31 / 2);
  }
}

TEST_CASE("a shuffle down reads the lane below; the caller handles the edge",
          "[fibers]") {
  // As the lowering does: it passes the source lane only when it is inside
  // the width, its own lane otherwise, and keeps its value when invalid.
  FiberBlock fibers;
  Record record(64);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t id = linearId(context), lane = id % 32;
    uint64_t value = static_cast<uint64_t>(100 * id);
    int64_t source = lane + 3;
    bool valid = source < 32;
    uint64_t got = shuffle(context, value, valid ? source : lane);
    recordOf(args).values[id] = static_cast<int64_t>(valid ? got : 7);
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(64), "down"));
  for (int64_t id = 0; id < 64; ++id) {
    INFO("thread " << id);
    CHECK(record.values[id] == (id % 32 + 3 < 32 ? 100 * (id + 3) : 7));
  }
}

TEST_CASE("a shuffle of width 16: lanes above the width read lanes below it",
          "[fibers]") {
  FiberBlock fibers;
  Record record(32);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t lane = linearId(context);
    uint64_t got =
        shuffle(context, static_cast<uint64_t>(lane * 10), (lane + 1) % 16, 16);
    recordOf(args).values[lane] = static_cast<int64_t>(got);
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(32), "k"));
  for (int64_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(record.values[lane] == 10 * ((lane + 1) % 16));
  }
}

TEST_CASE("a block of 48 threads has a partial last subgroup", "[fibers]") {
  // As gpu.all_reduce's rewrite does: the last subgroup shuffles with the
  // width of its active lanes.
  FiberBlock fibers;
  Record record(48);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t id = linearId(context), lane = id % 32;
    int64_t active = std::min<int64_t>(32, threadCount(context) - id / 32 * 32);
    uint64_t value = static_cast<uint64_t>(id);
    for (int64_t mask = 16; mask > 0; mask /= 2)
      if ((lane ^ mask) < active)
        value += shuffle(context, value, lane ^ mask, active);
      else
        value += shuffle(context, 0, lane, active) * 0;
    recordOf(args).values[id] = static_cast<int64_t>(value);
    // Width 32 in the partial subgroup: lanes 16-31 do not exist, and
    // reading one gives the reader's own value.
    uint64_t missing = shuffle(context, 1000 + id, 20, 32, kShuffleB);
    recordOf(args).ids[id] = static_cast<int64_t>(missing);
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(48), "partial"));
  for (int64_t id = 0; id < 48; ++id) {
    INFO("thread " << id);
    CHECK(record.values[id] == (id < 32 ? 32 * 31 / 2 : (32 + 47) * 16 / 2));
    CHECK(record.ids[id] == (id < 32 ? 1020 : 1000 + id));
  }
}

TEST_CASE("lanes at or above a shuffle's width may have returned", "[fibers]") {
  FiberBlock fibers;
  Record record(32);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t lane = linearId(context);
    barrier(context);
    if (lane >= 8)
      return;
    recordOf(args).values[lane] =
        static_cast<int64_t>(shuffle(context, lane + 1, 7 - lane, 8));
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(32), "k"));
  for (int64_t lane = 0; lane < 32; ++lane)
    CHECK(record.values[lane] == (lane < 8 ? 8 - lane : -1));
}

TEST_CASE("a broadcast in uniform code reads lane 0 or the lane given",
          "[fibers]") {
  // 40 threads: the second subgroup is partial (8 lanes).
  FiberBlock fibers;
  Record record(40);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t id = linearId(context);
    recordOf(args).values[id] =
        static_cast<int64_t>(broadcast(context, 100 + id, -1));
    recordOf(args).ids[id] =
        static_cast<int64_t>(broadcast(context, 100 + id, 5, kBroadcastB));
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(40), "k"));
  for (int64_t id = 0; id < 40; ++id) {
    INFO("thread " << id);
    CHECK(record.values[id] == (id < 32 ? 100 : 132));
    CHECK(record.ids[id] == (id < 32 ? 105 : 137));
  }
}

TEST_CASE("a broadcast in divergent code takes the lanes that reach it",
          "[fibers]") {
  // Lanes 10-29 broadcast while the others wait at a barrier: the first
  // active lane is 10, and lane 3, inactive, gives each reader its own value
  // (the dialect's poison).
  FiberBlock fibers;
  Record record(32);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t lane = linearId(context);
    if (lane >= 10 && lane < 30) {
      recordOf(args).values[lane] =
          static_cast<int64_t>(broadcast(context, 100 + lane, -1));
      recordOf(args).ids[lane] =
          static_cast<int64_t>(broadcast(context, 100 + lane, 3, kBroadcastB));
    }
    barrier(context);
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(32), "k"));
  for (int64_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    bool active = lane >= 10 && lane < 30;
    CHECK(record.values[lane] == (active ? 110 : -1));
    CHECK(record.ids[lane] == (active ? 100 + lane : -1));
  }
}

TEST_CASE("a broadcast goes on while lane 0 waits at a shuffle", "[fibers]") {
  // Lanes 16-31 broadcast before the shuffle of the whole subgroup that
  // lanes 0-15 already wait at; then they join it.
  FiberBlock fibers;
  Record record(32);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t lane = linearId(context);
    uint64_t value = static_cast<uint64_t>(lane);
    if (lane >= 16)
      value = broadcast(context, 100 + lane, -1);
    recordOf(args).values[lane] =
        static_cast<int64_t>(shuffle(context, value, 31 - lane));
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(32), "k"));
  for (int64_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(record.values[lane] == (lane < 16 ? 116 : 31 - lane));
  }
}

TEST_CASE("threads may return early when no barrier follows", "[fibers]") {
  FiberBlock fibers;
  Record record(100);
  auto kernel = [](HostKernelContext *context, void *args) {
    int64_t id = linearId(context);
    if (id % 3 == 0)
      return;
    recordOf(args).values[id] = id;
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(100), "k"));
  for (int64_t id = 0; id < 100; ++id)
    CHECK(record.values[id] == (id % 3 == 0 ? -1 : id));
}

TEST_CASE("a GPU thread's private memory lives on its fiber stack",
          "[fibers]") {
  // 64 KiB of locals per thread survive the switches of a barrier.
  FiberBlock fibers;
  Record record(64);
  auto kernel = [](HostKernelContext *context, void *args) {
    volatile int64_t local[8192];
    int64_t id = linearId(context);
    for (int64_t i = 0; i < 8192; ++i)
      local[i] = id * 8192 + i;
    barrier(context);
    int64_t wrong = 0;
    for (int64_t i = 0; i < 8192; ++i)
      wrong += local[i] != id * 8192 + i;
    recordOf(args).values[id] = wrong;
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(64), "k"));
  for (int64_t id = 0; id < 64; ++id)
    CHECK(record.values[id] == 0);
}

TEST_CASE("fibers and stacks are reused by later blocks", "[fibers]") {
  FiberBlock fibers;
  for (int64_t size : {64, 16, 64, 128}) {
    Record record(static_cast<size_t>(size), static_cast<size_t>(size));
    auto kernel = [](HostKernelContext *context, void *args) {
      Record &record = recordOf(args);
      int64_t id = linearId(context), n = threadCount(context);
      record.shared[id] = id;
      barrier(context);
      record.values[id] = record.shared[n - 1 - id];
    };
    REQUIRE_OK(fibers.run(kernel, &record, blockContext(size), "k"));
    for (int64_t id = 0; id < size; ++id)
      CHECK(record.values[id] == size - 1 - id);
  }
  CHECK(fibers.stackCount() == 128);
}

TEST_CASE("a thread that returns no longer counts at a barrier: the others "
          "go on",
          "[fibers]") {
  // As on a GPU since Volta, where bar.sync waits for the non-exited threads
  // of the block. Each thread's entry must run once: a returned thread is
  // not resumed when the barrier is released.
  FiberBlock fibers;
  Record record(32, 32);
  auto kernel = [](HostKernelContext *context, void *args) {
    Record &record = recordOf(args);
    int64_t id = linearId(context);
    record.ids[id] += 1;
    if (id == 5)
      return;
    record.shared[id] = id;
    barrier(context);
    record.values[id] = record.shared[31 - id];
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(32), "k"));
  for (int64_t id = 0; id < 32; ++id) {
    INFO("thread " << id);
    CHECK(record.ids[id] == 0);
    int64_t expected = id == 5 ? -1 : id == 26 ? 0 : 31 - id;
    CHECK(record.values[id] == expected);
  }
}

TEST_CASE("threads that return between barriers are not waited for at the "
          "later ones",
          "[fibers]") {
  // Thread t (of 96, in three subgroups) passes t % 5 barriers, alternating
  // between two of them, and returns; the second subgroup returns at once.
  // Every barrier a thread passes counts the threads that reached it.
  FiberBlock fibers;
  Record record(96, 8);
  for (int run = 0; run < 2; ++run) { // the second run reuses the fibers
    std::fill(record.values.begin(), record.values.end(), 0);
    std::fill(record.shared.begin(), record.shared.end(), 0);
    auto kernel = [](HostKernelContext *context, void *args) {
      Record &record = recordOf(args);
      int64_t id = linearId(context);
      int64_t rounds = id / 32 == 1 ? 0 : id % 5;
      for (int64_t round = 0; round < rounds; ++round) {
        record.shared[round] += 1;
        barrier(context, round % 2 ? kBarrierB : kBarrierA);
        record.values[id] += record.shared[round];
      }
    };
    REQUIRE_OK(fibers.run(kernel, &record, blockContext(96), "k"));
    // 64 threads outside the second subgroup, a fifth of them per count.
    auto reached = [](int64_t round) {
      int64_t count = 0;
      for (int64_t id = 0; id < 96; ++id)
        count += id / 32 != 1 && id % 5 > round;
      return count;
    };
    for (int64_t id = 0; id < 96; ++id) {
      INFO("run " << run << ", thread " << id);
      int64_t expected = 0;
      for (int64_t round = 0; id / 32 != 1 && round < id % 5; ++round)
        expected += reached(round);
      CHECK(record.values[id] == expected);
    }
  }
}

//===----------------------------------------------------------------------===//
// Deadlocks and misuse, as Statuses.
//===----------------------------------------------------------------------===//

namespace {

void requireFailure(const Status &status, const std::string &loc,
                    const std::string &message) {
  REQUIRE_FALSE(status.ok());
  CHECK(status.loc() == loc);
  CHECK(status.message() == message);
}

/// Thread 5 returns; the others below 16 wait at a barrier, the rest at a
/// shuffle that needs lanes 0 to 31.
void earlyReturnThenBarrierAndShuffle(HostKernelContext *context, void *) {
  int64_t id = linearId(context);
  if (id == 5)
    return;
  if (id < 16)
    barrier(context);
  else
    shuffle(context, 1, 0);
}

} // namespace

TEST_CASE("threads that return before a barrier, or at a shuffle while "
          "others wait at a barrier, are a deadlock counted as such",
          "[fibers][errors]") {
  FiberBlock fibers;
  HostKernelContext block = blockContext(32);
  block.blockId[0] = 2;
  block.blockId[2] = 1;
  requireFailure(
      fibers.run(earlyReturnThenBarrierAndShuffle, nullptr, block, "k"),
      kBarrierA,
      "deadlock in kernel 'k', block (2, 0, 1): 15 of 32 threads wait at this "
      "barrier, 1 returned, but thread (16, 0, 0) waits at gpu.shuffle at "
      "f.mlir:12:9");

  // The abandoned fibers are replaced: the block runs again, correctly.
  Record record(32);
  auto kernel = [](HostKernelContext *context, void *args) {
    barrier(context);
    recordOf(args).values[linearId(context)] = 1;
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(32), "k"));
  CHECK(std::accumulate(record.values.begin(), record.values.end(),
                        int64_t(0)) == 32);
}

TEST_CASE("threads waiting at different barriers after others returned are "
          "an error that names both",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    int64_t id = linearId(context);
    if (id >= 6)
      return;
    barrier(context);
    barrier(context, id < 3 ? kBarrierA : kBarrierB);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(8), "k"), kBarrierA,
                 "deadlock in kernel 'k', block (0, 0, 0): thread (0, 0, 0) "
                 "waits at this barrier, but thread (3, 0, 0) waits at "
                 "another one, gpu.barrier at f.mlir:9:5; all the threads of "
                 "a block must wait at the same barrier");
}

TEST_CASE("threads waiting at two different barriers are an error that "
          "names both",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    barrier(context, linearId(context) < 3 ? kBarrierA : kBarrierB);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(8), "k"), kBarrierA,
                 "deadlock in kernel 'k', block (0, 0, 0): thread (0, 0, 0) "
                 "waits at this barrier, but thread (3, 0, 0) waits at "
                 "another one, gpu.barrier at f.mlir:9:5; all the threads of "
                 "a block must wait at the same barrier");
}

TEST_CASE("barriers are matched by location, not by pointer", "[fibers]") {
  // Two copies of the same location string are the same barrier.
  static const char copyA[] = "gpu.barrier@f.mlir:7:3";
  static const char copyB[] = "gpu.barrier@f.mlir:7:3";
  FiberBlock fibers;
  Record record(8);
  auto kernel = [](HostKernelContext *context, void *args) {
    barrier(context, linearId(context) % 2 ? copyA : copyB);
    recordOf(args).values[linearId(context)] = 1;
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(8), "k"));
  CHECK(record.values == std::vector<int64_t>(8, 1));
}

TEST_CASE("lanes that return before a shuffle the others wait at are a "
          "deadlock",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    int64_t lane = linearId(context) % 32;
    if (linearId(context) >= 32 && lane >= 16)
      return;
    shuffle(context, 1, lane);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(64), "k"), kShuffleA,
                 "deadlock in kernel 'k', block (0, 0, 0): this shuffle of "
                 "width 32 needs lanes 0-31 of subgroup 1, but lanes 16-31 "
                 "(threads (48, 0, 0) to (63, 0, 0)) returned without "
                 "reaching it");
}

TEST_CASE("a gather gives every lane the slices of its subgroup in lane order",
          "[fibers]") {
  // Two subgroups, each lane with a slice of three values; each lane
  // gathers twice, so that a slice changed between gathers shows.
  FiberBlock fibers;
  Record record(64 * 96);
  auto kernel = [](HostKernelContext *context, void *args) {
    Record &record = recordOf(args);
    int64_t id = linearId(context);
    int64_t slice[3] = {id * 10, id * 10 + 1, id * 10 + 2};
    int64_t gathered[96];
    mgpuHostSubgroupGatherAt(context, slice, gathered, sizeof(slice), kGatherA);
    for (int64_t &value : slice)
      value = -value;
    int64_t again[96];
    mgpuHostSubgroupGatherAt(context, slice, again, sizeof(slice), kGatherB);
    for (int64_t i = 0; i < 96; ++i)
      record.values[id * 96 + i] =
          gathered[i] + 1000000 * (again[i] != -gathered[i]);
  };
  REQUIRE_OK(fibers.run(kernel, &record, blockContext(64), "k"));
  for (int64_t id = 0; id < 64; ++id) {
    INFO("thread " << id);
    int64_t first = id / 32 * 32;
    for (int64_t i = 0; i < 96; ++i)
      CHECK(record.values[id * 96 + i] == (first + i / 3) * 10 + i % 3);
  }
}

TEST_CASE("lanes that return before a gather the others wait at are a "
          "deadlock",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    if (linearId(context) >= 20)
      return;
    int64_t slice = 1, gathered[32];
    mgpuHostSubgroupGatherAt(context, &slice, gathered, sizeof(slice),
                             kGatherA);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(32), "k"), kGatherA,
                 "deadlock in kernel 'k', block (0, 0, 0): this matrix "
                 "multiply-accumulate needs lanes 0-31 of subgroup 0, but "
                 "lanes 20-31 (threads (20, 0, 0) to (31, 0, 0)) returned "
                 "without reaching it");
}

TEST_CASE("a lane at another gather is named in the deadlock",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    int64_t slice = 1, gathered[32];
    mgpuHostSubgroupGatherAt(context, &slice, gathered, sizeof(slice),
                             linearId(context) == 7 ? kGatherB : kGatherA);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(32), "k"), kGatherA,
                 "deadlock in kernel 'k', block (0, 0, 0): this matrix "
                 "multiply-accumulate needs lanes 0-31 of subgroup 0, but "
                 "lane 7 (thread (7, 0, 0)) waits at gpu.subgroup_mma_compute "
                 "at f.mlir:22:9");
}

TEST_CASE("threads at a gather while others wait at a barrier are named in "
          "the barrier's deadlock",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    // Half of subgroup 1 gathers: the gather cannot complete.
    int64_t id = linearId(context), slice = 1, gathered[32];
    if (id < 32 || id >= 48)
      barrier(context);
    else
      mgpuHostSubgroupGatherAt(context, &slice, gathered, sizeof(slice),
                               kGatherA);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(64), "k"), kBarrierA,
                 "deadlock in kernel 'k', block (0, 0, 0): 48 of 64 threads "
                 "wait at this barrier, but thread (32, 0, 0) waits at "
                 "gpu.subgroup_mma_compute at f.mlir:20:9");
}

TEST_CASE("a lane at another shuffle is named in the deadlock",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    int64_t lane = linearId(context);
    shuffle(context, 1, 0, 8, lane == 5 ? kShuffleB : kShuffleA);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(32), "k"), kShuffleA,
                 "deadlock in kernel 'k', block (0, 0, 0): this shuffle of "
                 "width 8 needs lanes 0-7 of subgroup 0, but lane 5 (thread "
                 "(5, 0, 0)) waits at gpu.shuffle at f.mlir:14:9");
}

TEST_CASE("threads at a shuffle while others wait at a barrier are named in "
          "the barrier's deadlock",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    int64_t id = linearId(context);
    if (id < 16)
      barrier(context);
    else
      shuffle(context, 1, 0);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(32), "k"), kBarrierA,
                 "deadlock in kernel 'k', block (0, 0, 0): 16 of 32 threads "
                 "wait at this barrier, but thread (16, 0, 0) waits at "
                 "gpu.shuffle at f.mlir:12:9");
}

TEST_CASE("lanes passing different widths to one shuffle are an error",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    int64_t lane = linearId(context);
    shuffle(context, 1, 0, lane == 3 ? 16 : 32);
  };
  requireFailure(fibers.run(kernel, nullptr, blockContext(32), "k"), kShuffleA,
                 "the lanes of subgroup 0 of kernel 'k', block (0, 0, 0) pass "
                 "different widths to this shuffle: lane 0 (thread (0, 0, 0)) "
                 "passes 32, lane 3 (thread (3, 0, 0)) passes 16; all the "
                 "lanes must pass the same width");
}

TEST_CASE("a source lane outside the width, or a bad width, is reported",
          "[fibers][errors]") {
  FiberBlock fibers;
  auto outside = [](HostKernelContext *context, void *) {
    shuffle(context, 1, linearId(context) == 2 ? 16 : 0, 16);
  };
  requireFailure(fibers.run(outside, nullptr, blockContext(32), "k"), kShuffleA,
                 "thread (2, 0, 0) of kernel 'k', block (0, 0, 0) reads lane "
                 "16, outside [0, 16), the shuffle's width: a bug of the host "
                 "kernel lowering, which passes source lanes below the width "
                 "only");
  auto badWidth = [](HostKernelContext *context, void *) {
    shuffle(context, 1, 0, 64);
  };
  requireFailure(fibers.run(badWidth, nullptr, blockContext(32), "k"),
                 kShuffleA,
                 "thread (0, 0, 0) of kernel 'k', block (0, 0, 0) shuffles "
                 "with width 64, outside [1, 32]: the width must be at least "
                 "1 and at most the subgroup size, 32");
}

//===----------------------------------------------------------------------===//
// Through the extern "C" functions: fatal errors, in a child process.
//===----------------------------------------------------------------------===//

TEST_CASE("a deadlock through mgpuLaunchHostKernelAt ends the process at the "
          "barrier's location",
          "[fibers][abi]") {
  // One block: the child runs it on its own thread and starts none.
  ChildResult result = runInChild([] {
    std::printf("launching");
    mgpuLaunchHostKernelAt(
        reinterpret_cast<void *>(&earlyReturnThenBarrierAndShuffle), 1, 1, 1, 1,
        1, 1, 32, 1, 1, 0, 0, kHostKernelUsesFibers, nullptr, 0, nullptr, "k",
        "gpu.launch_func@f.mlir:20:5");
    std::printf("never printed");
  });
  CHECK(result.exited);
  CHECK(result.exitStatus == 1);
  CHECK(result.out == "launching");
  CHECK(result.err ==
        "f.mlir:7:3: error: gpu.barrier: deadlock in kernel 'k', block (0, 0, "
        "0): 15 of 32 threads wait at this barrier, 1 returned, but thread "
        "(16, 0, 0) waits at gpu.shuffle at f.mlir:12:9\n");
}

TEST_CASE("a shuffle deadlock through the ABI names the lanes",
          "[fibers][abi]") {
  ChildResult result = runInChild([] {
    auto kernel = [](HostKernelContext *context, void *) {
      if (linearId(context) >= 16)
        return;
      shuffle(context, 1, 0);
    };
    void *entry =
        reinterpret_cast<void *>(+static_cast<HostKernelEntry>(kernel));
    mgpuLaunchHostKernelAt(entry, 1, 1, 1, 1, 1, 1, 32, 1, 1, 0, 0,
                           kHostKernelUsesFibers, nullptr, 0, nullptr, "sum",
                           "gpu.launch_func@f.mlir:20:5");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "f.mlir:12:9: error: gpu.shuffle: deadlock in kernel 'sum', block (0, "
        "0, 0): this shuffle of width 32 needs lanes 0-31 of subgroup 0, but "
        "lanes 16-31 (threads (16, 0, 0) to (31, 0, 0)) returned without "
        "reaching it\n");
}

TEST_CASE("a barrier in a kernel launched without fibers is a lowering bug",
          "[fibers][abi]") {
  ChildResult result = runInChild([] {
    auto kernel = [](HostKernelContext *context, void *) { barrier(context); };
    void *entry =
        reinterpret_cast<void *>(+static_cast<HostKernelEntry>(kernel));
    mgpuLaunchHostKernelAt(entry, 1, 1, 1, 1, 1, 1, 32, 1, 1, 0, 0, 0, nullptr,
                           0, nullptr, "k", "gpu.launch_func@f.mlir:20:5");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "f.mlir:7:3: error: gpu.barrier: a kernel launched without fibers "
        "reached this op: a bug of the host kernel lowering, which launches "
        "every kernel with barriers or shuffles with kHostKernelUsesFibers\n");
}

TEST_CASE("a GPU thread that overflows its stack faults on the guard page",
          "[fibers][abi]") {
  ChildResult result = runInChild([] {
    FiberBlock fibers;
    auto kernel = [](HostKernelContext *, void *) {
      volatile char local = 0;
      volatile char *below =
          &local - FiberBlock::kStackBytes - 64; // in the guard page
      *below = 1;
    };
    (void)fibers.run(kernel, nullptr, blockContext(1), "k");
  });
  // Killed by SIGSEGV, or a sanitizer's report of it with a failing status.
  CHECK_FALSE((result.exited && result.exitStatus == 0));
}

//===----------------------------------------------------------------------===//
// The cost of a barrier.
//===----------------------------------------------------------------------===//

TEST_CASE("benchmark: 256 fibers pass 1000 barriers", "[.benchmark]") {
  constexpr int64_t kThreads = 256, kBarriers = 1000;
  FiberBlock fibers;
  auto kernel = [](HostKernelContext *context, void *) {
    for (int64_t i = 0; i < kBarriers; ++i)
      barrier(context);
  };
  REQUIRE_OK(fibers.run(kernel, nullptr, blockContext(kThreads), "warm-up"));
  double best = 1e30;
  for (int repeat = 0; repeat < 5; ++repeat) {
    auto start = std::chrono::steady_clock::now();
    REQUIRE_OK(fibers.run(kernel, nullptr, blockContext(kThreads), "bench"));
    std::chrono::duration<double, std::nano> elapsed =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count() / double(kThreads * kBarriers));
  }
  WARN("barrier: " << best << " ns per fiber per barrier (best of 5)");

  auto shuffles = [](HostKernelContext *context, void *) {
    uint64_t value = static_cast<uint64_t>(linearId(context));
    for (int64_t i = 0; i < kBarriers; ++i)
      value = shuffle(context, value, (linearId(context) + 1) % 32);
  };
  best = 1e30;
  for (int repeat = 0; repeat < 5; ++repeat) {
    auto start = std::chrono::steady_clock::now();
    REQUIRE_OK(fibers.run(shuffles, nullptr, blockContext(kThreads), "bench"));
    std::chrono::duration<double, std::nano> elapsed =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count() / double(kThreads * kBarriers));
  }
  WARN("shuffle: " << best << " ns per lane per shuffle (best of 5)");
}
