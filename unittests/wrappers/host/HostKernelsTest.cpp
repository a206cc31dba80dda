//===- HostKernelsTest.cpp - Launching kernels compiled for the host ------===//
//
// Launches of hand-written kernels through HostRuntime: the checks of a
// launch (exact messages), every block of a 3-D grid run exactly once, with
// and without fibers, blocks of one grid and grids of two streams really in
// parallel, asynchronous launches ordered with the other work of their
// stream, arguments copied at enqueue time, workgroup memory (static and
// dynamic parts, alignment, one buffer per running block), and the worker
// pool's life. The fatal errors of the extern "C" layer run in children.
//
// Kernels run on worker threads: they record what they see in atomics and
// arrays that the test checks afterwards, never with Catch2's assertions.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostRuntime.h"

#include "wrappers/MgpuAbi.h"
#include "wrappers/common/FatalReport.h"

#include "unittests/wrappers/TestSupport.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;
using namespace std::chrono_literals;

namespace {

const char *const kLaunchLoc = "gpu.launch_func@k.mlir:3:5";

KernelLaunch makeLaunch(HostKernelEntry entry, std::array<int64_t, 3> grid,
                        std::array<int64_t, 3> block, int32_t flags = 0) {
  KernelLaunch launch;
  launch.entry = entry;
  for (int i = 0; i < 3; ++i) {
    launch.grid[i] = grid[i];
    launch.block[i] = block[i];
  }
  launch.flags = flags;
  launch.name = "k";
  return launch;
}

/// Launches with `argument` (a pointer) as the kernel's only argument.
template <typename T>
Status launch(HostRuntime &runtime, const KernelLaunch &launch, T *argument,
              void *stream = nullptr) {
  return runtime.launchKernel(launch, &argument, sizeof(argument), stream,
                              kLaunchLoc);
}

template <typename T> T &argumentOf(void *args) {
  return **static_cast<T **>(args);
}

void *createStream(HostRuntime &runtime) {
  void *stream = nullptr;
  REQUIRE_OK(runtime.createStream(stream, kLoc));
  return stream;
}

void noop(HostKernelContext *, void *) {}

int64_t linearBlock(const HostKernelContext *context) {
  return context->blockId[0] +
         context->gridDim[0] *
             (context->blockId[1] + context->gridDim[1] * context->blockId[2]);
}

int64_t linearThread(const HostKernelContext *context) {
  return context->threadId[0] +
         context->blockDim[0] * (context->threadId[1] +
                                 context->blockDim[1] * context->threadId[2]);
}

/// Spins until `flag` is set or `timeout` passed; says which.
bool waitFor(const std::atomic<int> &flag, std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!flag.load()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::yield();
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Checks of a launch.
//===----------------------------------------------------------------------===//

TEST_CASE("a launch is checked against CUDA's limits", "[kernels]") {
  HostRuntime runtime;
  auto check = [&](KernelLaunch launch, int64_t argsBytes = 0) {
    char args[16] = {};
    return runtime.launchKernel(launch, args, argsBytes, nullptr, kLaunchLoc);
  };
  const std::string dimension = ": every dimension of the grid and of a block "
                                "must be at least 1";
  REQUIRE_ERROR(check(makeLaunch(noop, {1, 1, 1}, {4, 0, 1})),
                "kernel 'k': block size 0 in y" + dimension);
  CHECK(check(makeLaunch(noop, {1, 1, 1}, {4, 0, 1})).message() ==
        "kernel 'k': block size 0 in y" + dimension);
  CHECK(check(makeLaunch(noop, {1, 1, -3}, {4, 1, 1})).message() ==
        "kernel 'k': grid size -3 in z" + dimension);
  CHECK(check(makeLaunch(noop, {0, 1, 1}, {0, 1, 1})).message() ==
        "kernel 'k': grid size 0 in x" + dimension);

  const std::string portable = ", CUDA's limits, which the host backend keeps "
                               "so that programs stay portable";
  CHECK(check(makeLaunch(noop, {1, 1, 1}, {2048, 1, 1})).message() ==
        "kernel 'k': block size 2048 in x: a block has at most 1024 threads "
        "in x and y and 64 in z" +
            portable);
  CHECK(check(makeLaunch(noop, {1, 1, 1}, {1, 1, 65})).message() ==
        "kernel 'k': block size 65 in z: a block has at most 1024 threads in "
        "x and y and 64 in z" +
            portable);
  // A product that would overflow is caught by the per-dimension limits.
  CHECK(check(makeLaunch(noop, {1, 1, 1}, {int64_t(1) << 40, 1 << 30, 1}))
            .message() ==
        "kernel 'k': block size 1099511627776 in x: a block has at most 1024 "
        "threads in x and y and 64 in z" +
            portable);
  CHECK(check(makeLaunch(noop, {1, 1, 1}, {64, 32, 1})).message() ==
        "kernel 'k': a block of 64 x 32 x 1 = 2048 threads: a block has at "
        "most 1024 threads" +
            portable);
  CHECK(check(makeLaunch(noop, {1, 1, 1}, {1024, 1024, 64})).message() ==
        "kernel 'k': a block of 1024 x 1024 x 64 = 67108864 threads: a block "
        "has at most 1024 threads" +
            portable);
  CHECK(check(makeLaunch(noop, {1, 70000, 1}, {1, 1, 1})).message() ==
        "kernel 'k': grid size 70000 in y: a grid has at most 2147483647 "
        "blocks in x and 65535 in y and z" +
            portable);
  CHECK(
      check(makeLaunch(noop, {int64_t(1) << 31, 1, 1}, {1, 1, 1})).message() ==
      "kernel 'k': grid size 2147483648 in x: a grid has at most 2147483647 "
      "blocks in x and 65535 in y and z" +
          portable);

  KernelLaunch shared = makeLaunch(noop, {1, 1, 1}, {1, 1, 1});
  shared.staticSharedBytes = 200000;
  shared.dynamicSharedBytes = 32449;
  CHECK(check(shared).message() ==
        "kernel 'k': 200000 bytes of static and 32449 bytes of dynamic "
        "workgroup memory: a block has at most 232448 bytes (227 KiB), the "
        "most an H100 or H200 block can have");
  shared.dynamicSharedBytes = int64_t(1) << 62; // no overflow of the sum
  CHECK_FALSE(check(shared).ok());
  shared.dynamicSharedBytes = -4;
  CHECK(check(shared).message() ==
        "kernel 'k': negative dynamic shared memory size -4");
  KernelLaunch arguments = makeLaunch(noop, {1, 1, 1}, {1, 1, 1});
  CHECK(check(arguments, -8).message() ==
        "kernel 'k': negative size of the kernel's arguments: -8 bytes");

  // The limits themselves are fine.
  KernelLaunch most = makeLaunch(noop, {1, 1, 1}, {1024, 1, 1});
  most.staticSharedBytes = 232448 - 1000;
  most.dynamicSharedBytes = 1000;
  REQUIRE_OK(check(most));
  REQUIRE_OK(check(makeLaunch(noop, {1, 1, 1}, {1, 16, 64})));
  REQUIRE_OK(check(makeLaunch(noop, {1, 1, 1}, {1, 1024, 1})));
}

TEST_CASE("a launch's thread block clusters are checked as CUDA checks them",
          "[kernels]") {
  HostRuntime runtime;
  auto check = [&](std::array<int64_t, 3> cluster,
                   std::array<int64_t, 3> grid) {
    KernelLaunch launch = makeLaunch(noop, grid, {1, 1, 1});
    for (int i = 0; i < 3; ++i)
      launch.cluster[i] = cluster[i];
    char args[16] = {};
    return runtime.launchKernel(launch, args, 0, nullptr, kLaunchLoc);
  };
  const std::string portable = ", CUDA's portable cluster size, which the "
                               "host backend keeps so that programs stay "
                               "portable";
  CHECK(check({1, 0, 1}, {4, 4, 1}).message() ==
        "kernel 'k': cluster size 0 in y: every dimension of a cluster must "
        "be at least 1");
  CHECK(check({2, 1, -2}, {4, 4, 4}).message() ==
        "kernel 'k': cluster size -2 in z: every dimension of a cluster must "
        "be at least 1");
  CHECK(check({16, 1, 1}, {16, 1, 1}).message() ==
        "kernel 'k': cluster size 16 in x: a cluster has at most 8 blocks" +
            portable);
  // A product that would overflow is caught by the per-dimension limit.
  CHECK(check({int64_t(1) << 40, int64_t(1) << 40, 1}, {1, 1, 1}).message() ==
        "kernel 'k': cluster size 1099511627776 in x: a cluster has at most 8 "
        "blocks" +
            portable);
  CHECK(check({4, 2, 2}, {4, 2, 2}).message() ==
        "kernel 'k': a cluster of 4 x 2 x 2 = 16 blocks: a cluster has at "
        "most 8 blocks" +
            portable);
  CHECK(check({3, 1, 1}, {16, 1, 1}).message() ==
        "kernel 'k': grid size 16 in x is not a multiple of the cluster size "
        "3: the grid must be made of whole clusters, as CUDA requires");
  CHECK(check({1, 1, 2}, {2, 2, 3}).message() ==
        "kernel 'k': grid size 3 in z is not a multiple of the cluster size "
        "2: the grid must be made of whole clusters, as CUDA requires");
  REQUIRE_OK(check({8, 1, 1}, {16, 1, 1}));
  REQUIRE_OK(check({2, 2, 2}, {4, 2, 6}));
  REQUIRE_OK(check({1, 1, 1}, {5, 3, 7}));
}

TEST_CASE("every block sees the launch's cluster size", "[kernels]") {
  HostRuntime runtime;
  // Each block writes its cluster size at its linear index.
  std::array<std::array<int64_t, 3>, 8> seen = {};
  auto kernel = [](HostKernelContext *context, void *args) {
    auto &seen = argumentOf<std::array<std::array<int64_t, 3>, 8>>(args);
    int64_t block =
        context->blockId[0] +
        context->gridDim[0] *
            (context->blockId[1] + context->gridDim[1] * context->blockId[2]);
    for (int i = 0; i < 3; ++i)
      seen[block][i] = context->clusterDim[i];
  };
  KernelLaunch clustered = makeLaunch(kernel, {2, 2, 2}, {1, 1, 1});
  clustered.cluster[0] = 2;
  clustered.cluster[2] = 2;
  REQUIRE_OK(launch(runtime, clustered, &seen));
  for (const auto &block : seen)
    CHECK(block == std::array<int64_t, 3>{2, 1, 2});
  // Without clusters, a cluster of one block.
  REQUIRE_OK(launch(runtime, makeLaunch(kernel, {2, 2, 2}, {1, 1, 1}), &seen));
  for (const auto &block : seen)
    CHECK(block == std::array<int64_t, 3>{1, 1, 1});
}

TEST_CASE("a launch on a released stream is refused", "[kernels]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
  char args[8] = {};
  REQUIRE_ERROR(runtime.launchKernel(makeLaunch(noop, {1, 1, 1}, {1, 1, 1}),
                                     args, 8, stream, kLaunchLoc),
                "already released");
}

//===----------------------------------------------------------------------===//
// Grids.
//===----------------------------------------------------------------------===//

namespace {

struct GridRecord {
  static constexpr int64_t kBlocks = 5 * 4 * 3;
  std::atomic<int> calls[kBlocks] = {};
  std::atomic<int> bad{0};
};

void countBlocks(HostKernelContext *context, void *args) {
  GridRecord &record = argumentOf<GridRecord>(args);
  bool good = context->gridDim[0] == 5 && context->gridDim[1] == 4 &&
              context->gridDim[2] == 3 && context->blockDim[0] == 7 &&
              context->blockDim[1] == 2 && context->blockDim[2] == 1 &&
              context->blockId[0] < 5 && context->blockId[1] < 4 &&
              context->blockId[2] < 3 && context->runtime == nullptr;
  if (!good)
    ++record.bad;
  ++record.calls[linearBlock(context)];
}

} // namespace

TEST_CASE("without fibers, the entry runs once per block of a 3-D grid",
          "[kernels]") {
  HostRuntime runtime;
  GridRecord record;
  REQUIRE_OK(
      launch(runtime, makeLaunch(countBlocks, {5, 4, 3}, {7, 2, 1}), &record));
  for (int64_t block = 0; block < GridRecord::kBlocks; ++block) {
    INFO("block " << block);
    CHECK(record.calls[block].load() == 1);
  }
  CHECK(record.bad.load() == 0);
}

namespace {

struct ThreadGridRecord {
  static constexpr int64_t kBlocks = 3 * 2 * 2, kThreads = 8 * 4 * 2;
  std::atomic<int> runs[kBlocks * kThreads] = {};
  std::atomic<int> bad{0};
};

void countThreads(HostKernelContext *context, void *args) {
  ThreadGridRecord &record = argumentOf<ThreadGridRecord>(args);
  int64_t thread = linearThread(context);
  auto *shared = static_cast<int64_t *>(context->sharedMemory);
  shared[thread] = linearBlock(context) * 1000 + thread;
  mgpuHostBarrierAt(context, "gpu.barrier@k.mlir:4:4");
  // Every thread of the block sees the block's own workgroup memory.
  for (int64_t i = 0; i < ThreadGridRecord::kThreads; ++i)
    if (shared[i] != linearBlock(context) * 1000 + i)
      ++record.bad;
  ++record.runs[linearBlock(context) * ThreadGridRecord::kThreads + thread];
}

} // namespace

TEST_CASE("with fibers, the entry runs once per GPU thread of every block",
          "[kernels]") {
  HostRuntime runtime;
  ThreadGridRecord record;
  KernelLaunch kernel =
      makeLaunch(countThreads, {3, 2, 2}, {8, 4, 2}, kHostKernelUsesFibers);
  kernel.staticSharedBytes = 8 * ThreadGridRecord::kThreads;
  REQUIRE_OK(launch(runtime, kernel, &record));
  for (int64_t i = 0;
       i < ThreadGridRecord::kBlocks * ThreadGridRecord::kThreads; ++i) {
    INFO("block " << i / ThreadGridRecord::kThreads << ", thread "
                  << i % ThreadGridRecord::kThreads);
    CHECK(record.runs[i].load() == 1);
  }
  CHECK(record.bad.load() == 0);
}

namespace {

/// Two parties that each wait for the other: done only if they run at the
/// same time. Each gives up after a timeout, so a failure cannot hang.
struct Rendezvous {
  std::atomic<int> arrived[2] = {};
  std::atomic<int> met[2] = {};
};

void meet(Rendezvous &rendezvous, int64_t party) {
  rendezvous.arrived[party] = 1;
  if (waitFor(rendezvous.arrived[1 - party], 10s))
    rendezvous.met[party] = 1;
}

void meetByBlock(HostKernelContext *context, void *args) {
  meet(argumentOf<Rendezvous>(args), context->blockId[0]);
}

void meetByFirstThread(HostKernelContext *context, void *args) {
  if (linearThread(context) == 0)
    meet(argumentOf<Rendezvous>(args), context->blockId[1]);
  mgpuHostBarrierAt(context, "gpu.barrier@k.mlir:4:4");
}

} // namespace

TEST_CASE("the blocks of a grid run in parallel", "[kernels]") {
  HostRuntime runtime;
  Rendezvous rendezvous;
  REQUIRE_OK(launch(runtime, makeLaunch(meetByBlock, {2, 1, 1}, {1, 1, 1}),
                    &rendezvous));
  CHECK(rendezvous.met[0].load() == 1);
  CHECK(rendezvous.met[1].load() == 1);

  // Fiber blocks too, each on its own OS thread.
  Rendezvous fiberRendezvous;
  REQUIRE_OK(launch(runtime,
                    makeLaunch(meetByFirstThread, {1, 2, 1}, {64, 1, 1},
                               kHostKernelUsesFibers),
                    &fiberRendezvous));
  CHECK(fiberRendezvous.met[0].load() == 1);
  CHECK(fiberRendezvous.met[1].load() == 1);
  CHECK(runtime.kernels().workerCount() ==
        std::max(2u, std::thread::hardware_concurrency()) - 1);
}

TEST_CASE("runParallel runs every index once, on several threads at once",
          "[kernels]") {
  HostRuntime runtime;
  // Two indices that wait for each other end only on two threads.
  Rendezvous rendezvous;
  runtime.kernels().runParallel(
      2,
      [](void *context, int64_t index) {
        meet(*static_cast<Rendezvous *>(context), index);
      },
      &rendezvous);
  CHECK(rendezvous.met[0].load() == 1);
  CHECK(rendezvous.met[1].load() == 1);

  std::vector<std::atomic<int>> calls(1000);
  runtime.kernels().runParallel(
      static_cast<int64_t>(calls.size()),
      [](void *context, int64_t index) {
        ++(*static_cast<std::vector<std::atomic<int>> *>(context))[index];
      },
      &calls);
  for (const std::atomic<int> &count : calls)
    CHECK(count.load() == 1);

  runtime.kernels().runParallel(
      0, [](void *, int64_t) { FAIL("no index to run"); }, nullptr);
}

namespace {

struct OpLocMeeting {
  Rendezvous rendezvous;
  const char *seen[2] = {};
};

} // namespace

TEST_CASE("runParallel's indices run as part of the caller's runtime op, on "
          "every thread",
          "[kernels]") {
  HostRuntime runtime;
  OpLocMeeting meeting;
  {
    RunningOpScope running("gpu.memcpy@big.mlir:7:5");
    runtime.kernels().runParallel(
        2,
        [](void *context, int64_t index) {
          auto &meeting = *static_cast<OpLocMeeting *>(context);
          meet(meeting.rendezvous, index);
          meeting.seen[index] = runningOpLoc();
        },
        &meeting);
  }
  // Both indices ran at once, so on two threads.
  REQUIRE(meeting.rendezvous.met[0].load() == 1);
  REQUIRE(meeting.rendezvous.met[1].load() == 1);
  for (const char *seen : meeting.seen) {
    REQUIRE(seen);
    CHECK(std::string(seen) == "gpu.memcpy@big.mlir:7:5");
  }
  CHECK(runningOpLoc() == nullptr);
}

namespace {

struct StreamMeeting {
  Rendezvous *rendezvous;
  int64_t party;
};

void meetByArgument(HostKernelContext *, void *args) {
  StreamMeeting &meeting = argumentOf<StreamMeeting>(args);
  meet(*meeting.rendezvous, meeting.party);
}

} // namespace

TEST_CASE("launches on two streams run at the same time", "[kernels]") {
  HostRuntime runtime;
  void *first = createStream(runtime);
  void *second = createStream(runtime);
  Rendezvous rendezvous;
  StreamMeeting meetings[2] = {{&rendezvous, 0}, {&rendezvous, 1}};
  KernelLaunch kernel = makeLaunch(meetByArgument, {1, 1, 1}, {1, 1, 1});
  REQUIRE_OK(launch(runtime, kernel, &meetings[0], first));
  REQUIRE_OK(launch(runtime, kernel, &meetings[1], second));
  REQUIRE_OK(runtime.synchronizeStream(first, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(second, kLoc));
  CHECK(rendezvous.met[0].load() == 1);
  CHECK(rendezvous.met[1].load() == 1);
  REQUIRE_OK(runtime.destroyStream(first, kLoc));
  REQUIRE_OK(runtime.destroyStream(second, kLoc));
}

//===----------------------------------------------------------------------===//
// Streams and arguments.
//===----------------------------------------------------------------------===//

namespace {

/// Adds the block's id plus the argument's `offset` to data[block].
struct AddArgs {
  int32_t *data;
  int32_t offset;
};

void addBlockId(HostKernelContext *context, void *args) {
  auto *arguments = static_cast<AddArgs *>(args);
  int64_t block = context->blockId[0];
  arguments->data[block] += static_cast<int32_t>(block) + arguments->offset;
}

} // namespace

TEST_CASE("an asynchronous launch runs on its stream, in order with the "
          "stream's other work",
          "[kernels]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  void *device = nullptr;
  REQUIRE_OK(runtime.allocate(64 * 4, nullptr, false, "gpu.alloc", device));

  Gate gate;
  REQUIRE_OK(runtime.streams().enqueue(
      stream,
      [&gate] {
        gate.wait();
        return Status();
      },
      "test"));
  REQUIRE_OK(runtime.memset(device, 100, 4, 64, stream, "gpu.memset"));
  AddArgs args{static_cast<int32_t *>(device), 5};
  REQUIRE_OK(
      runtime.launchKernel(makeLaunch(addBlockId, {64, 1, 1}, {32, 1, 1}),
                           &args, sizeof(args), stream, kLaunchLoc));
  // The arguments were copied: changing them now changes nothing.
  args.offset = 1000;
  std::vector<int32_t> host(64, -1);
  REQUIRE_OK(runtime.memcpy(host.data(), device, 64 * 4, stream, "gpu.memcpy"));

  std::this_thread::sleep_for(20ms); // a wrong, synchronous launch would run
  CHECK(host == std::vector<int32_t>(64, -1));
  CHECK(static_cast<int32_t *>(device)[0] == 0); // not even the memset ran
  gate.open();
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  for (int32_t block = 0; block < 64; ++block) {
    INFO("block " << block);
    CHECK(host[block] == 100 + block + 5);
  }
  REQUIRE_OK(runtime.free(device, nullptr, "gpu.dealloc"));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

namespace {

struct AlignmentArgs {
  std::atomic<int> seen{-1};
};

void recordAlignment(HostKernelContext *, void *args) {
  argumentOf<AlignmentArgs>(args).seen =
      static_cast<int>(reinterpret_cast<uintptr_t>(args) % 16);
}

} // namespace

TEST_CASE("the kernel's arguments are a 16-byte aligned copy", "[kernels]") {
  HostRuntime runtime;
  // A misaligned source buffer.
  alignas(16) char buffer[32] = {};
  AlignmentArgs record;
  AlignmentArgs *pointer = &record;
  std::memcpy(buffer + 4, &pointer, sizeof(pointer));
  REQUIRE_OK(
      runtime.launchKernel(makeLaunch(recordAlignment, {1, 1, 1}, {1, 1, 1}),
                           buffer + 4, sizeof(pointer), nullptr, kLaunchLoc));
  CHECK(record.seen.load() == 0);
}

TEST_CASE("a synchronous launch waits for the work of every stream first",
          "[kernels]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  int32_t data[4] = {0, 0, 0, 0};
  Gate gate;
  REQUIRE_OK(runtime.streams().enqueue(
      stream,
      [&gate] {
        gate.wait();
        return Status();
      },
      "test"));
  AddArgs first{data, 10};
  REQUIRE_OK(runtime.launchKernel(makeLaunch(addBlockId, {4, 1, 1}, {1, 1, 1}),
                                  &first, sizeof(first), stream, kLaunchLoc));
  DelayedOpener opener(gate, 50ms);
  // data[i] = 2 * (10 + i) only if the second launch ran after the first.
  AddArgs second{data, 0};
  auto doubling = [](HostKernelContext *context, void *args) {
    auto *arguments = static_cast<AddArgs *>(args);
    arguments->data[context->blockId[0]] *= 2;
  };
  REQUIRE_OK(runtime.launchKernel(makeLaunch(doubling, {4, 1, 1}, {1, 1, 1}),
                                  &second, sizeof(second), nullptr,
                                  kLaunchLoc));
  for (int32_t i = 0; i < 4; ++i)
    CHECK(data[i] == 2 * (10 + i));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

//===----------------------------------------------------------------------===//
// Workgroup memory.
//===----------------------------------------------------------------------===//

namespace {

struct SharedRecord {
  std::atomic<int64_t> staticAlignment{-1};
  std::atomic<int64_t> dynamicOffset{-1};
  std::atomic<int64_t> dynamicBytes{-1};
  std::atomic<int> bad{0};
};

void useSharedMemory(HostKernelContext *context, void *args) {
  SharedRecord &record = argumentOf<SharedRecord>(args);
  auto *shared = static_cast<unsigned char *>(context->sharedMemory);
  auto *dynamic = static_cast<unsigned char *>(context->dynamicSharedMemory);
  record.staticAlignment = reinterpret_cast<uintptr_t>(shared) % 16;
  record.dynamicOffset = dynamic - shared;
  record.dynamicBytes = context->dynamicSharedBytes;
  // The whole buffer is usable; each block sees only its own.
  unsigned char mark = static_cast<unsigned char>(context->blockId[0] + 1);
  size_t bytes = static_cast<size_t>(dynamic - shared) +
                 static_cast<size_t>(context->dynamicSharedBytes);
  std::memset(shared, mark, bytes);
  std::this_thread::yield();
  for (size_t i = 0; i < bytes; ++i)
    if (shared[i] != mark) {
      ++record.bad;
      break;
    }
}

} // namespace

TEST_CASE("workgroup memory: static part, then the dynamic part 16-byte "
          "aligned, one buffer per running block",
          "[kernels]") {
  HostRuntime runtime;
  SharedRecord record;
  KernelLaunch kernel = makeLaunch(useSharedMemory, {16, 1, 1}, {1, 1, 1});
  kernel.staticSharedBytes = 20;
  kernel.dynamicSharedBytes = 100;
  REQUIRE_OK(launch(runtime, kernel, &record));
  CHECK(record.staticAlignment.load() == 0);
  CHECK(record.dynamicOffset.load() == 32);
  CHECK(record.dynamicBytes.load() == 100);
  CHECK(record.bad.load() == 0);

  // The most a block may have, all of it dynamic, over many blocks.
  kernel.grid[0] = 64;
  kernel.staticSharedBytes = 0;
  kernel.dynamicSharedBytes = kMaxSharedMemoryBytes;
  REQUIRE_OK(launch(runtime, kernel, &record));
  CHECK(record.dynamicOffset.load() == 0);
  CHECK(record.dynamicBytes.load() == kMaxSharedMemoryBytes);
  CHECK(record.bad.load() == 0);

  // Exactly 16 bytes of static memory: nothing added before the dynamic part.
  kernel.staticSharedBytes = 16;
  kernel.dynamicSharedBytes = 8;
  REQUIRE_OK(launch(runtime, kernel, &record));
  CHECK(record.dynamicOffset.load() == 16);
  CHECK(record.dynamicBytes.load() == 8);
}

//===----------------------------------------------------------------------===//
// The pool's life.
//===----------------------------------------------------------------------===//

TEST_CASE("workers start at the first grid of several blocks, reuse their "
          "runners, and are joined at finalize",
          "[kernels]") {
  HostRuntime runtime;
  GridRecord record;
  // One block runs on the launching thread alone.
  REQUIRE_OK(launch(runtime, makeLaunch(noop, {1, 1, 1}, {1, 1, 1}), &record));
  CHECK(runtime.kernels().workerCount() == 0);
  CHECK(runtime.kernels().runnerCount() == 1);

  // With the launching thread, one thread a core (two at least).
  size_t workers = std::max(2u, std::thread::hardware_concurrency()) - 1;
  for (int i = 0; i < 20; ++i) {
    GridRecord grid;
    REQUIRE_OK(
        launch(runtime, makeLaunch(countBlocks, {5, 4, 3}, {7, 2, 1}), &grid));
    for (int64_t block = 0; block < GridRecord::kBlocks; ++block)
      CHECK(grid.calls[block].load() == 1);
  }
  CHECK(runtime.kernels().workerCount() == workers);
  // The workers and the launching thread, at most.
  CHECK(runtime.kernels().runnerCount() <= workers + 1);

  std::vector<HostRuntime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  CHECK(runtime.kernels().workerCount() == 0);
  CHECK(runtime.kernels().runnerCount() == 0);

  // And the pool starts again.
  GridRecord again;
  REQUIRE_OK(
      launch(runtime, makeLaunch(countBlocks, {5, 4, 3}, {7, 2, 1}), &again));
  CHECK(again.calls[GridRecord::kBlocks - 1].load() == 1);
  CHECK(runtime.kernels().workerCount() == workers);
}

//===----------------------------------------------------------------------===//
// The extern "C" layer, in children.
//===----------------------------------------------------------------------===//

TEST_CASE("a launch the checks refuse ends the process at the launch",
          "[kernels][abi]") {
  ChildResult result = runInChild([] {
    mgpuLaunchHostKernelAt(reinterpret_cast<void *>(&noop), 1, 1, 1, 1, 1, 1, 4,
                           0, 1, 0, 0, 0, nullptr, 0, nullptr, "k",
                           "gpu.launch_func@v.mlir:3:3");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "v.mlir:3:3: error: gpu.launch_func: kernel 'k': block "
                      "size 0 in y: every dimension of the grid and of a "
                      "block must be at least 1\n");

  result = runInChild([] {
    mgpuLaunchHostKernelAt(reinterpret_cast<void *>(&noop), 2, 1, 1, 3, 1, 1, 1,
                           1, 1, 0, 0, 0, nullptr, 0, nullptr, "c",
                           "gpu.launch_func@v.mlir:5:3");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "v.mlir:5:3: error: gpu.launch_func: kernel 'c': grid size 3 in x is "
        "not a multiple of the cluster size 2: the grid must be made of whole "
        "clusters, as CUDA requires\n");

  result = runInChild([] {
    mgpuLaunchHostKernelAt(reinterpret_cast<void *>(&noop), 1, 1, 1, 1, 1, 1, 1,
                           1, 1, 232448, 1, 0, nullptr, 0, nullptr, "big",
                           "gpu.launch_func@v.mlir:4:3");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "v.mlir:4:3: error: gpu.launch_func: kernel 'big': 1 bytes of static "
        "and 232448 bytes of dynamic workgroup memory: a block has at most "
        "232448 bytes (227 KiB), the most an H100 or H200 block can have\n");
}

TEST_CASE("a synchronous launch through the ABI runs the kernel",
          "[kernels][abi]") {
  ChildResult result = runInChild([] {
    auto kernel = [](HostKernelContext *context, void *args) {
      int64_t value = *static_cast<int64_t *>(args);
      if (linearThread(context) == 0)
        std::printf("block %lld of %lld: %lld\n",
                    static_cast<long long>(context->blockId[0]),
                    static_cast<long long>(context->gridDim[0]),
                    static_cast<long long>(value));
      mgpuHostBarrierAt(context, "gpu.barrier@a.mlir:2:2");
    };
    int64_t value = 42;
    mgpuLaunchHostKernelAt(
        reinterpret_cast<void *>(+static_cast<HostKernelEntry>(kernel)), 1, 1,
        1, 1, 1, 1, 64, 1, 1, 0, 0, kHostKernelUsesFibers, &value,
        sizeof(value), nullptr, "k", "gpu.launch_func@a.mlir:1:1");
  });
  CHECK(result.exitStatus == 0);
  CHECK(result.out == "block 0 of 1: 42\n");
  CHECK(result.err.empty());
}
