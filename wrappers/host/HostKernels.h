//===- HostKernels.h - Kernels compiled for the host: launches, blocks ----===//
//
// What runs a grid of a kernel that the host lowering compiled into the
// program: the launch's checks (CUDA's limits, so that a program that runs
// here also runs on a GPU), one block on the calling thread (BlockRunner),
// and the grid on a process-wide pool of worker threads (KernelExecutor).
//
// Blocks of a grid run in parallel, in no guaranteed order, as on a GPU.
// The thread that launches a grid (a stream's worker, or the program's
// thread for a synchronous launch) runs blocks too, so a launch never waits
// on a pool that is busy with another launch while it has nothing to do.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTKERNELS_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTKERNELS_H

#include "wrappers/HostKernelAbi.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/Fibers.h"
#include "wrappers/host/HostCopies.h"
#include "wrappers/host/WorkgroupChecks.h"
#include "wrappers/host/WorkgroupMemory.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <pthread.h>
#include <setjmp.h>

namespace gpu_runner {

/// CUDA's limits, checked at every launch so that programs stay portable.
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kMaxBlockDim[3] = {1024, 1024, 64};
constexpr int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};
/// Blocks of a thread block cluster: 8, CUDA's portable cluster size (a GPU
/// may allow more to a kernel that opts in to a non-portable size).
constexpr int64_t kMaxClusterBlocks = 8;
/// Workgroup memory of one block, static and dynamic together: 227 KiB,
/// the most a block can have on an H100 or H200.
constexpr int64_t kMaxSharedMemoryBytes = 232448;

/// One gpu.launch_func of a kernel compiled for the host.
struct KernelLaunch {
  HostKernelEntry entry = nullptr;
  /// Blocks per thread block cluster: (1, 1, 1) without clusters.
  int64_t cluster[3] = {1, 1, 1};
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t dynamicSharedBytes = 0;
  int64_t staticSharedBytes = 0;
  /// HostKernelFlags.
  int32_t flags = 0;
  /// The kernel's name, for errors.
  std::string name;
  /// The launch op's loc, for errors found while the kernel runs; may be
  /// null.
  const char *loc = nullptr;

  bool usesFibers() const { return flags & kHostKernelUsesFibers; }
  bool resumesAfterAssertions() const {
    return flags & kHostKernelResumesAfterAssertions;
  }
  // Valid once validateKernelLaunch accepted the launch.
  int64_t threadsPerBlock() const { return block[0] * block[1] * block[2]; }
  int64_t blockCount() const { return grid[0] * grid[1] * grid[2]; }
  /// Offset of the dynamic part in the block's workgroup memory.
  int64_t dynamicSharedOffset() const;
  int64_t sharedMemoryBytes() const {
    return dynamicSharedOffset() + dynamicSharedBytes;
  }
};

/// Checks a launch and the size of its packed arguments; the message names
/// the kernel. Every dimension at least 1 and within CUDA's limits, at most
/// 1024 threads per block, at most 227 KiB of workgroup memory; a thread
/// block cluster of at most 8 blocks whose every dimension divides the
/// grid's.
Status validateKernelLaunch(const KernelLaunch &launch, int64_t argsBytes);

/// Runs blocks on the calling thread, with workgroup memory (between guard
/// pages, checked after each block: WorkgroupMemory.h) and fibers of its
/// own that every block it runs reuses. Used by one OS thread at a time.
class BlockRunner {
public:
  BlockRunner() = default;
  ~BlockRunner();
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &operator=(const BlockRunner &) = delete;

  /// Runs block `blockIndex` (x fastest, then y, then z) of a launch that
  /// validateKernelLaunch accepted. Fails on what FiberBlock::run reports,
  /// when the block wrote workgroup memory out of bounds, and, once every
  /// thread has ended, when threads failed an assertion (assertionReport()
  /// then holds their lines).
  Status run(const KernelLaunch &launch, void *args, int64_t blockIndex);

  /// Once the calling thread has run its blocks of a launch: fails if one
  /// of them wrote workgroup memory further before its start than run()
  /// checks after each block (WorkgroupMemory::checkFar).
  Status checkFarWorkgroupMargin(const KernelLaunch &launch);

  /// The lines of the assertions that failed in the last block run() ran,
  /// as a GPU prints them; empty if none failed.
  const std::string &assertionReport() const { return assertionLines; }

  /// cf.assert failed in a GPU thread of the block that the calling OS
  /// thread runs without fibers (kHostKernelResumesAfterAssertions):
  /// records it, leaves the thread's frames and runs the block's loops again
  /// from the next thread.
  [[noreturn]] static void failAssertion(const AssertionFailure &failure);

  FiberBlock &fibers() { return fiberBlock; }

private:
  void runResumable(const KernelLaunch &launch, HostKernelContext *context,
                    void *args);

  FiberBlock fiberBlock;
  /// The block run without fibers that a failed assertion goes back to.
  sigjmp_buf resumePoint;
  HostKernelContext *resumeContext = nullptr;
  std::vector<AssertionFailure> loopFailures;
  std::string assertionLines;
  WorkgroupMemory workgroup;
  /// racecheck and initcheck's view of `workgroup`.
  WorkgroupShadow shadow;
};

/// A GPU thread failed an assertion: the grid the calling OS thread runs
/// blocks of hands out no more blocks (a GPU aborts the kernel). The blocks
/// already running finish.
void stopGridAfterAssertion();

/// Runs grids on a pool of worker threads, one per hardware thread, started
/// at the first grid with more than one block. Several grids (from several
/// streams) may run at once; each takes blocks from an atomic counter.
class KernelExecutor final : public ParallelRunner {
public:
  KernelExecutor();
  /// Joins the workers (see shutdown).
  ~KernelExecutor();
  KernelExecutor(const KernelExecutor &) = delete;
  KernelExecutor &operator=(const KernelExecutor &) = delete;

  /// Runs every block of `launch` (validated) and returns once all have
  /// finished. A failed block (a deadlock, ...) ends the process with
  /// reportFatalError at the location of the op concerned (`loc`, the
  /// launch's, if it has none), at once, on whatever thread found it: other
  /// blocks may wait for it forever, as they would on a GPU.
  void runGrid(const KernelLaunch &launch, void *args, const char *loc);

  /// Runs the indices on the calling thread and the pool's workers, as a
  /// grid's blocks: work of the device that is not a grid, such as the
  /// parts of a large copy.
  void runParallel(int64_t count, void (*body)(void *, int64_t),
                   void *context) override;

  /// Joins the workers and frees the block runners. No grid may be running.
  /// The pool starts again at the next grid that needs it.
  void shutdown();

  /// Introspection for tests.
  size_t workerCount() const;
  size_t runnerCount() const;

private:
  struct Grid;
  struct Worker;

  static void *workerMain(void *executor);
  void workerLoop();
  /// Both expect `mutex` to be held.
  void startWorkers();
  BlockRunner *borrowRunner();
  void runBlocks(Grid &grid, BlockRunner &runner);
  static void runParts(Grid &grid);
  /// Takes a share of `grid` on this worker; expects `lock` held, and
  /// holds it again on return.
  void join(Grid &grid, std::unique_lock<std::mutex> &lock);
  /// Runs `grid` on the calling thread and, where it has more than one
  /// part, the workers; expects `lock` held.
  void runShared(Grid &grid, std::unique_lock<std::mutex> &lock);

  mutable std::mutex mutex;
  /// Workers wait here for a grid with blocks left to take.
  std::condition_variable wake;
  /// Launching threads wait here for the workers still in their grid.
  std::condition_variable left;
  std::vector<Grid *> grids;
  std::vector<pthread_t> workers;
  bool stopping = false;
  std::vector<std::unique_ptr<BlockRunner>> runners;
  std::vector<BlockRunner *> idleRunners;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTKERNELS_H
