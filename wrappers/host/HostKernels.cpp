//===- HostKernels.cpp - Kernels compiled for the host: launches, blocks --===//
//
// See HostKernels.h. The pool's state (grids with blocks left, idle block
// runners, workers) is guarded by one mutex, held only to pick a grid or a
// runner; blocks are handed out by each grid's atomic counter. A grid lives
// on the stack of the thread that launched it, which removes it from the
// list once it has no blocks left and waits for the workers still running
// its last blocks.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostKernels.h"

#include "wrappers/common/CheckReports.h"
#include "wrappers/common/FatalReport.h"
#include "wrappers/common/FaultHandler.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace gpu_runner {

namespace {

const char *const kAxes[3] = {"x", "y", "z"};

/// The block runner that runs, on this OS thread, a block without fibers
/// that a failed assertion may go back to.
thread_local BlockRunner *resumableRunner = nullptr;

/// The flag that stops the grid whose blocks this OS thread runs.
thread_local std::atomic<bool> *runningGridStop = nullptr;

const char *const kPortable =
    "CUDA's limits, which the host backend keeps so that programs stay "
    "portable";

int64_t roundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

} // namespace

int64_t KernelLaunch::dynamicSharedOffset() const {
  return roundUp(staticSharedBytes, kHostSharedMemoryAlignment);
}

Status validateKernelLaunch(const KernelLaunch &launch, int64_t argsBytes) {
  std::string kernel = "kernel '" + launch.name + "': ";
  if (!launch.entry)
    return Status::error(kernel + "the kernel's function is null");
  if (launch.flags &
      ~int32_t(kHostKernelUsesFibers | kHostKernelResumesAfterAssertions))
    return Status::error(kernel + "unknown launch flags " +
                         std::to_string(launch.flags));
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] < 1)
      return Status::error(kernel + "grid size " +
                           std::to_string(launch.grid[i]) + " in " + kAxes[i] +
                           ": every dimension of the grid and of a block "
                           "must be at least 1");
  for (int i = 0; i < 3; ++i)
    if (launch.block[i] < 1)
      return Status::error(kernel + "block size " +
                           std::to_string(launch.block[i]) + " in " + kAxes[i] +
                           ": every dimension of the grid and of a block "
                           "must be at least 1");
  for (int i = 0; i < 3; ++i)
    if (launch.block[i] > kMaxBlockDim[i])
      return Status::error(kernel + "block size " +
                           std::to_string(launch.block[i]) + " in " + kAxes[i] +
                           ": a block has at most 1024 threads in x and y "
                           "and 64 in z, " +
                           kPortable);
  // Each dimension is small now: the product cannot overflow.
  if (launch.threadsPerBlock() > kMaxThreadsPerBlock)
    return Status::error(
        kernel + "a block of " + std::to_string(launch.block[0]) + " x " +
        std::to_string(launch.block[1]) + " x " +
        std::to_string(launch.block[2]) + " = " +
        std::to_string(launch.threadsPerBlock()) +
        " threads: a block has at most 1024 threads, " + kPortable);
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] > kMaxGridDim[i])
      return Status::error(kernel + "grid size " +
                           std::to_string(launch.grid[i]) + " in " + kAxes[i] +
                           ": a grid has at most 2147483647 blocks in x and "
                           "65535 in y and z, " +
                           kPortable);
  // Thread block clusters, as cudaLaunchKernelEx and cuLaunchKernelEx
  // check them (CUDA C++ Programming Guide, Thread Block Clusters: "The
  // grid dimension must be a multiple of cluster size"; "a maximum of 8
  // thread blocks in a cluster is supported as a portable cluster size").
  for (int i = 0; i < 3; ++i)
    if (launch.cluster[i] < 1)
      return Status::error(kernel + "cluster size " +
                           std::to_string(launch.cluster[i]) + " in " +
                           kAxes[i] +
                           ": every dimension of a cluster must be at least 1");
  for (int i = 0; i < 3; ++i)
    if (launch.cluster[i] > kMaxClusterBlocks)
      return Status::error(kernel + "cluster size " +
                           std::to_string(launch.cluster[i]) + " in " +
                           kAxes[i] +
                           ": a cluster has at most 8 blocks, CUDA's portable "
                           "cluster size, which the host backend keeps so "
                           "that programs stay portable");
  // Each dimension is at most 8 now: the product cannot overflow.
  int64_t clusterBlocks =
      launch.cluster[0] * launch.cluster[1] * launch.cluster[2];
  if (clusterBlocks > kMaxClusterBlocks)
    return Status::error(
        kernel + "a cluster of " + std::to_string(launch.cluster[0]) + " x " +
        std::to_string(launch.cluster[1]) + " x " +
        std::to_string(launch.cluster[2]) + " = " +
        std::to_string(clusterBlocks) +
        " blocks: a cluster has at most 8 blocks, CUDA's portable cluster "
        "size, which the host backend keeps so that programs stay portable");
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] % launch.cluster[i] != 0)
      return Status::error(
          kernel + "grid size " + std::to_string(launch.grid[i]) + " in " +
          kAxes[i] + " is not a multiple of the cluster size " +
          std::to_string(launch.cluster[i]) +
          ": the grid must be made of whole clusters, as CUDA requires");
  if (launch.staticSharedBytes < 0)
    return Status::error(kernel + "negative static workgroup memory size " +
                         std::to_string(launch.staticSharedBytes));
  if (launch.dynamicSharedBytes < 0)
    return Status::error(kernel + "negative dynamic shared memory size " +
                         std::to_string(launch.dynamicSharedBytes));
  if (launch.staticSharedBytes > kMaxSharedMemoryBytes ||
      launch.dynamicSharedBytes > kMaxSharedMemoryBytes ||
      launch.staticSharedBytes + launch.dynamicSharedBytes >
          kMaxSharedMemoryBytes)
    return Status::error(
        kernel + std::to_string(launch.staticSharedBytes) +
        " bytes of static and " + std::to_string(launch.dynamicSharedBytes) +
        " bytes of dynamic workgroup memory: a block has at most 232448 "
        "bytes (227 KiB), the most an H100 or H200 block can have");
  if (argsBytes < 0)
    return Status::error(kernel + "negative size of the kernel's arguments: " +
                         std::to_string(argsBytes) + " bytes");
  return Status();
}

//===----------------------------------------------------------------------===//
// BlockRunner
//===----------------------------------------------------------------------===//

// The most a validated launch asks for: the static part padded to 16
// bytes, then the dynamic part.
static_assert(WorkgroupMemory::kMaxBytes >=
                  kMaxSharedMemoryBytes + kHostSharedMemoryAlignment - 1,
              "a block's workgroup memory must fit the mapping");

BlockRunner::~BlockRunner() = default;

Status BlockRunner::run(const KernelLaunch &launch, void *args,
                        int64_t blockIndex) {
  // Kept while the size stays the same: blocks never allocate. Not
  // zero-filled, as on a GPU. Without a dynamic part it ends where the
  // static part does, so that a store just past the last attribution
  // changes the margin after it rather than padding.
  GPU_RUNNER_RETURN_IF_ERROR(workgroup.prepare(static_cast<size_t>(
      launch.dynamicSharedBytes ? launch.sharedMemoryBytes()
                                : launch.staticSharedBytes)));

  // Every field set one by one, and no division for a grid in x alone:
  // this runs once per block, and a block of a split kernel is short.
  HostKernelContext context;
  if (launch.grid[1] == 1 && launch.grid[2] == 1) {
    context.blockId[0] = blockIndex;
    context.blockId[1] = 0;
    context.blockId[2] = 0;
  } else {
    context.blockId[0] = blockIndex % launch.grid[0];
    context.blockId[1] = blockIndex / launch.grid[0] % launch.grid[1];
    context.blockId[2] = blockIndex / launch.grid[0] / launch.grid[1];
  }
  context.runtime = nullptr;
  for (int i = 0; i < 3; ++i) {
    context.threadId[i] = 0;
    context.blockDim[i] = launch.block[i];
    context.gridDim[i] = launch.grid[i];
    context.clusterDim[i] = launch.cluster[i];
  }
  context.sharedMemory = workgroup.data();
  context.dynamicSharedMemory = workgroup.data() + launch.dynamicSharedOffset();
  context.dynamicSharedBytes = launch.dynamicSharedBytes;
  // A fault of the kernel is reported with what runs here.
  ensureSignalStack();
  RunningKernelScope running(launch.name.c_str(), launch.loc, context.blockId);
  RunningKernel &record = runningKernel();
  record.workgroupBegin = workgroup.data();
  record.workgroupBytes = workgroup.size();
  record.workgroupReservedBegin = workgroup.reservedBegin();
  record.workgroupReservedEnd = workgroup.reservedEnd();
  // racecheck and initcheck see the block's accesses of workgroup memory
  // through the shadow, for as long as the block runs.
  struct ShadowScope {
    explicit ShadowScope(WorkgroupShadow *shadow) {
      WorkgroupShadow::setCurrent(shadow);
    }
    ~ShadowScope() { WorkgroupShadow::setCurrent(nullptr); }
  };
  bool races = isCheckEnabled(Check::Racecheck);
  bool init = isCheckEnabled(Check::Initcheck);
  if (races || init)
    shadow.beginBlock(workgroup.data(), workgroup.size(), launch.block, races,
                      init);
  ShadowScope shadowScope(races || init ? &shadow : nullptr);
  assertionLines.clear();
  const std::vector<AssertionFailure> *failures = &loopFailures;
  loopFailures.clear();
  if (!launch.usesFibers()) {
    // The kernel loops over the block's threads itself.
    if (launch.resumesAfterAssertions())
      runResumable(launch, &context, args);
    else
      launch.entry(&context, args);
  } else {
    if (Status status =
            fiberBlock.run(launch.entry, args, context, launch.name);
        !status.ok()) {
      // The deadlock or misuse is the error; the margins are made whole
      // again for the next block (in tests, which go on).
      (void)workgroup.check();
      return status;
    }
    failures = &fiberBlock.assertionFailures();
  }
  // Once per block, not per access: a store out of bounds that stayed
  // within the accessible pages changed the pattern around the block's
  // bytes.
  if (Status margins = workgroup.check(); !margins.ok())
    return Status::error(
        "kernel '" + launch.name +
        "': workgroup memory written out of bounds in block (" +
        std::to_string(context.blockId[0]) + ", " +
        std::to_string(context.blockId[1]) + ", " +
        std::to_string(context.blockId[2]) + "): a store changed " +
        margins.message() + "; run with --check-bounds to find the store");
  if (failures->empty())
    return Status();
  // Every thread of the block has ended: the failed ones print, as a GPU
  // prints each failed device assertion, and the launch fails.
  assertionLines =
      formatAssertionFailures(*failures, context.blockId, context.blockDim);
  size_t count = failures->size();
  return Status::error("kernel '" + launch.name + "' failed in block (" +
                       std::to_string(context.blockId[0]) + ", " +
                       std::to_string(context.blockId[1]) + ", " +
                       std::to_string(context.blockId[2]) +
                       "): " + std::to_string(count) +
                       (count == 1 ? " thread" : " threads") +
                       " failed an assertion (printed above)");
}

Status BlockRunner::checkFarWorkgroupMargin(const KernelLaunch &launch) {
  Status margin = workgroup.checkFar();
  if (margin.ok())
    return margin;
  return Status::error("kernel '" + launch.name +
                       "': workgroup memory written out of bounds in one of "
                       "its blocks: a store changed " +
                       margin.message() +
                       "; run with --check-bounds to find the store");
}

__attribute__((noinline)) void
BlockRunner::runResumable(const KernelLaunch &launch,
                          HostKernelContext *context, void *args) {
  BlockRunner *saved = resumableRunner;
  resumableRunner = this;
  resumeContext = context;
  // Without the signal mask: no system call per block. A failed thread
  // comes back here with the context's threadId set to the next thread, and
  // the kernel's loops start there (HostKernelAbi.h).
  sigsetjmp(resumePoint, 0);
  launch.entry(context, args);
  resumableRunner = saved;
}

void BlockRunner::failAssertion(const AssertionFailure &failure) {
  BlockRunner *runner = resumableRunner;
  if (!runner)
    reportFatalError(
        nullptr, "a kernel launched without kHostKernelResumesAfterAssertions "
                 "or fibers failed a cf.assert: a bug of the host kernel "
                 "lowering");
  runner->loopFailures.push_back(failure);
  HostKernelContext &context = *runner->resumeContext;
  context.threadId[0] = failure.threadId[0] + 1;
  context.threadId[1] = failure.threadId[1];
  context.threadId[2] = failure.threadId[2];
  // The thread's frames are the JIT'd kernel's, which hold nothing to
  // release: left like a trapped GPU thread's.
  siglongjmp(runner->resumePoint, 1);
}

void stopGridAfterAssertion() {
  if (runningGridStop)
    runningGridStop->store(true, std::memory_order_relaxed);
}

//===----------------------------------------------------------------------===//
// KernelExecutor
//===----------------------------------------------------------------------===//

struct KernelExecutor::Grid {
  /// The launch whose blocks the grid runs; null for runParallel's loop,
  /// whose indices `body` runs.
  const KernelLaunch *launch = nullptr;
  void *args = nullptr;
  const char *loc = nullptr;
  void (*body)(void *, int64_t) = nullptr;
  void *context = nullptr;
  /// The runtime op that runParallel's caller runs (RunningOpScope): every
  /// thread runs the indices as part of it, so that a fault there is
  /// reported at the op.
  const char *opLoc = nullptr;
  int64_t blockCount = 0;
  /// The next block index to hand out; past blockCount once all are taken.
  std::atomic<int64_t> next{0};
  /// Blocks handed out at a time: enough that the shared counter is not
  /// what small blocks wait on, few enough that the threads finish together.
  int64_t chunk = 1;
  /// Threads taking blocks from it, the launching one included.
  int participants = 0;
  /// Set when a thread failed an assertion: no more blocks are handed out.
  std::atomic<bool> stopped{false};
};

KernelExecutor::KernelExecutor() = default;

KernelExecutor::~KernelExecutor() { shutdown(); }

void *KernelExecutor::workerMain(void *executor) {
  static_cast<KernelExecutor *>(executor)->workerLoop();
  return nullptr;
}

void KernelExecutor::startWorkers() {
  if (!workers.empty())
    return;
  // The launching thread runs blocks too: together, one thread a core, and
  // at least two, so that blocks run in parallel even on one core.
  unsigned count = std::max(2u, std::thread::hardware_concurrency()) - 1;
  for (unsigned i = 0; i < count; ++i) {
    pthread_t thread;
    // Without workers the launching threads still run every block.
    if (pthread_create(&thread, nullptr, &workerMain, this) == 0)
      workers.push_back(thread);
  }
}

BlockRunner *KernelExecutor::borrowRunner() {
  if (idleRunners.empty()) {
    runners.push_back(std::make_unique<BlockRunner>());
    return runners.back().get();
  }
  BlockRunner *runner = idleRunners.back();
  idleRunners.pop_back();
  return runner;
}

void KernelExecutor::runBlocks(Grid &grid, BlockRunner &runner) {
  std::atomic<bool> *savedStop = runningGridStop;
  runningGridStop = &grid.stopped;
  while (!grid.stopped.load(std::memory_order_relaxed)) {
    int64_t first = grid.next.fetch_add(grid.chunk, std::memory_order_relaxed);
    if (first >= grid.blockCount)
      break;
    int64_t last = std::min(first + grid.chunk, grid.blockCount);
    for (int64_t index = first;
         index < last && !grid.stopped.load(std::memory_order_relaxed);
         ++index) {
      Status status = runner.run(*grid.launch, grid.args, index);
      if (!status.ok())
        reportFatalError(status.loc().empty() ? grid.loc : status.loc().c_str(),
                         status.message(), runner.assertionReport());
    }
  }
  runningGridStop = savedStop;
  // The far margin once per thread and grid, not per block.
  if (Status margin = runner.checkFarWorkgroupMargin(*grid.launch);
      !margin.ok())
    reportFatalError(grid.loc, margin.message());
}

void KernelExecutor::runParts(Grid &grid) {
  RunningOpScope running(grid.opLoc);
  while (true) {
    int64_t first = grid.next.fetch_add(grid.chunk, std::memory_order_relaxed);
    if (first >= grid.blockCount)
      return;
    int64_t last = std::min(first + grid.chunk, grid.blockCount);
    for (int64_t index = first; index < last; ++index)
      grid.body(grid.context, index);
  }
}

void KernelExecutor::join(Grid &grid, std::unique_lock<std::mutex> &lock) {
  ++grid.participants;
  if (grid.launch) {
    BlockRunner *runner = borrowRunner();
    lock.unlock();
    runBlocks(grid, *runner);
    lock.lock();
    idleRunners.push_back(runner);
  } else {
    lock.unlock();
    runParts(grid);
    lock.lock();
  }
  if (--grid.participants == 0)
    left.notify_all();
}

void KernelExecutor::runShared(Grid &grid, std::unique_lock<std::mutex> &lock) {
  bool shared = grid.blockCount > 1;
  if (shared) {
    startWorkers();
    grids.push_back(&grid);
    wake.notify_all();
  }
  join(grid, lock);
  if (shared) {
    grids.erase(std::find(grids.begin(), grids.end(), &grid));
    left.wait(lock, [&] { return grid.participants == 0; });
  }
}

void KernelExecutor::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    Grid *grid = nullptr;
    wake.wait(lock, [&] {
      for (Grid *candidate : grids)
        if (candidate->next.load(std::memory_order_relaxed) <
            candidate->blockCount) {
          grid = candidate;
          return true;
        }
      return stopping;
    });
    if (!grid)
      return;
    join(*grid, lock);
  }
}

void KernelExecutor::runGrid(const KernelLaunch &launch, void *args,
                             const char *loc) {
  Grid grid;
  grid.launch = &launch;
  grid.args = args;
  grid.loc = loc;
  grid.blockCount = launch.blockCount();
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  grid.chunk = std::max<int64_t>(1, grid.blockCount / (threads * 16));
  std::unique_lock<std::mutex> lock(mutex);
  runShared(grid, lock);
}

void KernelExecutor::runParallel(int64_t count, void (*body)(void *, int64_t),
                                 void *context) {
  if (count <= 0)
    return;
  Grid grid;
  grid.body = body;
  grid.context = context;
  grid.opLoc = runningOpLoc();
  grid.blockCount = count;
  std::unique_lock<std::mutex> lock(mutex);
  runShared(grid, lock);
}

void KernelExecutor::shutdown() {
  std::unique_lock<std::mutex> lock(mutex);
  stopping = true;
  wake.notify_all();
  std::vector<pthread_t> finished = std::move(workers);
  workers.clear();
  lock.unlock();
  for (pthread_t thread : finished)
    pthread_join(thread, nullptr);
  lock.lock();
  stopping = false;
  // Free the runners nobody uses (all of them when no grid runs).
  std::vector<std::unique_ptr<BlockRunner>> freed;
  for (std::unique_ptr<BlockRunner> &runner : runners)
    if (std::find(idleRunners.begin(), idleRunners.end(), runner.get()) !=
        idleRunners.end())
      freed.push_back(std::move(runner));
  runners.erase(std::remove(runners.begin(), runners.end(), nullptr),
                runners.end());
  idleRunners.clear();
  lock.unlock();
  freed.clear();
}

size_t KernelExecutor::workerCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return workers.size();
}

size_t KernelExecutor::runnerCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return runners.size();
}

} // namespace gpu_runner
