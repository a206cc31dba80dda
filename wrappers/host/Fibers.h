//===- Fibers.h - The GPU threads of one block, as fibers -----------------===//
//
// A kernel with barriers or shuffles runs each GPU thread of a block as a
// fiber (Boost.Context) on the one OS thread that runs the block. A fiber runs
// until it waits at a gpu.barrier, gpu.shuffle or gpu.subgroup_broadcast, or
// returns; when no fiber can run, the scheduler releases a barrier that every
// thread which has not returned reached (a GPU waits for the non-exited
// threads only), completes the shuffles whose lanes all arrived and the
// broadcasts (among the lanes that wait at them), or reports a deadlock.
// Nothing runs concurrently inside a block, so its state needs no locks.
//
// Fibers and their stacks are kept and reused across blocks and launches: a
// fiber whose GPU thread returned waits for the next block's thread in the
// same slot, so a block costs no allocation and no fiber creation.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_FIBERS_H
#define GPU_RUNNER_WRAPPERS_HOST_FIBERS_H

#include "wrappers/HostKernelAbi.h"
#include "wrappers/common/RuntimeError.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {

/// What the lowering emits for each kernel: `entry(context, args)`.
using HostKernelEntry = void (*)(HostKernelContext *context, void *args);

/// A GPU thread's failed cf.assert (mgpuHostAssertFailAt): what its line
/// says. The strings are the program's constants.
struct AssertionFailure {
  int64_t threadId[3] = {0, 0, 0};
  const char *message = nullptr;
  const char *file = nullptr;
  int32_t line = 0;
  const char *function = nullptr;
};

/// The lines a GPU prints for the failed assertions of block `blockId` (of
/// `blockDim` threads), one per thread, in the order of the threads' linear
/// ids whatever order they failed in:
/// `file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `message`
/// failed.`
std::string formatAssertionFailures(std::vector<AssertionFailure> failures,
                                    const int64_t *blockId,
                                    const int64_t *blockDim);

/// Runs the GPU threads of one block at a time as fibers. Owns one fiber and
/// one stack per thread slot, reused by every later block. Used by one OS
/// thread at a time.
class FiberBlock {
public:
  /// Usable bytes of each fiber's stack: a GPU thread's private memory. A
  /// PROT_NONE guard page lies below it.
  static constexpr size_t kStackBytes = 128 * 1024;

  FiberBlock();
  /// Drops the fibers (waiting between threads) and unmaps their stacks.
  ~FiberBlock();
  FiberBlock(const FiberBlock &) = delete;
  FiberBlock &operator=(const FiberBlock &) = delete;

  /// Runs `entry(threadContext, args)` once per thread of the block that
  /// `block` describes (its threadId and runtime fields are ignored), each on
  /// its fiber with its own threadId, until every thread has returned or
  /// failed an assertion (assertionFailures() then lists those).
  /// Fails, at the location of the op concerned, on a deadlock, threads
  /// waiting at different barriers, or a misused shuffle; the block's fibers
  /// are then abandoned where they wait, never resumed. A block in which a
  /// thread failed an assertion does not fail for what follows from it (the
  /// others waiting for it at a shuffle): a GPU aborts such a kernel.
  Status run(HostKernelEntry entry, void *args, const HostKernelContext &block,
             const std::string &kernelName);

  /// gpu.barrier and gpu.shuffle of the GPU thread whose context is
  /// `context` (see HostKernelAbi.def). Only for contexts that run() made.
  static void barrier(HostKernelContext *context, const char *loc);
  static uint64_t shuffle(HostKernelContext *context, uint64_t value,
                          int32_t sourceLane, int32_t width, const char *loc);
  /// gpu.subgroup_broadcast (see HostKernelAbi.def): `sourceLane` -1 reads
  /// the first active lane.
  static uint64_t broadcast(HostKernelContext *context, uint64_t value,
                            int32_t sourceLane, const char *loc);
  /// The all-gather of gpu.subgroup_mma_compute (see HostKernelAbi.def):
  /// returns once `gathered` holds the `bytes` at `slice` of every lane of
  /// the caller's subgroup, in lane order.
  static void gather(HostKernelContext *context, const void *slice,
                     void *gathered, int64_t bytes, const char *loc);

  /// cf.assert failed in the GPU thread whose context is `context`: records
  /// it and ends the thread; the others go on, and a thread that ended so no
  /// longer counts at barriers, like one that returned.
  [[noreturn]] static void failAssertion(HostKernelContext *context,
                                         const AssertionFailure &failure);

  /// The assertions that failed in the last block run() ran.
  const std::vector<AssertionFailure> &assertionFailures() const {
    return failures;
  }

  /// Stacks mapped so far: the most threads a block has had.
  size_t stackCount() const { return slots.size(); }

private:
  struct Slot;
  enum class ThreadState : uint8_t;

  Status prepare(int64_t threadCount);
  Status createFiber(Slot &slot);
  void resume(Slot &slot);
  void suspend(Slot &slot);
  /// Parks the thread of `slot` in `state` (at a shuffle or a broadcast)
  /// until its subgroup's lanes are complete; returns what it receives.
  uint64_t waitForLanes(Slot &slot, ThreadState state, uint64_t value,
                        int32_t sourceLane, int32_t width, const char *loc);
  void enterFiber(Slot &slot);
  /// A failure found on a fiber: record it, then switch away for good.
  void fail(Status status);
  [[noreturn]] void stopFiber(Slot &slot);
  [[noreturn]] static void fiberMain(Slot &slot);
  static void dropFiber(Slot &slot);
  /// Drops the fiber of a thread that will never be resumed, so that the
  /// slot gets a fresh one for its next thread.
  static void resetSlot(Slot &slot);
  /// Resets the slots of the threads that failed an assertion.
  void retireFailedThreads();
  /// Lets the threads waiting at the barrier go on: the next batch.
  void releaseBarrier(const uint32_t *&batch, size_t &batchSize);
  Status completeShuffles();
  Status completeShuffle(uint32_t subgroup, bool &completed);
  void completeBroadcast(uint32_t subgroup, bool &completed);
  Status completeGather(uint32_t subgroup, bool &completed);
  Status deadlock() const;
  Status abandon(Status status);

  // Messages.
  std::string where() const;
  std::string threadName(uint32_t linear) const;
  std::string laneRange(uint32_t firstLinear, uint32_t lastLinear) const;

  std::vector<std::unique_ptr<Slot>> slots;

  // The block being run.
  HostKernelEntry entry = nullptr;
  void *args = nullptr;
  const std::string *kernelName = nullptr;
  int64_t blockId[3] = {0, 0, 0};
  int64_t blockDim[3] = {1, 1, 1};
  uint32_t threadCount = 0;
  uint32_t finishedCount = 0;
  uint32_t barrierWaiters = 0;
  /// The barrier the waiting threads wait at, and the first that reached it.
  const char *barrierLoc = nullptr;
  uint32_t barrierFirst = 0;
  /// Lanes waiting at a shuffle or broadcast, per subgroup; subgroups with
  /// waiters.
  std::vector<uint32_t> shuffleWaiters;
  std::vector<uint32_t> pendingSubgroups;
  /// Threads to run next: all of them after a barrier, or lanes whose
  /// shuffle completed.
  std::vector<uint32_t> allThreads;
  std::vector<uint32_t> woken;
  bool failed = false;
  Status failure;
  std::vector<AssertionFailure> failures;

  // Sanitizer bookkeeping of the OS thread's own stack while fibers run.
  const void *schedulerStackBottom = nullptr;
  size_t schedulerStackSize = 0;
  void *schedulerTsanFiber = nullptr;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_FIBERS_H
