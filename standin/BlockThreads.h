//===- BlockThreads.h - The GPU threads of one block, as fibers -----------===//
//
// Runs the threads of one thread block of a kernel the stand-in compiled
// (KernelCompiler.h), on the OS thread that calls run(), each GPU thread a
// fiber (Boost.Context) with a stack of its own, its private memory. A
// thread runs until it waits for others (a barrier, a warp-collective
// instruction) or ends; a wait completes as soon as the PTX ISA's rule for it
// holds, and when no thread can run, what waits for the warp's convergence
// (activemask) completes, or the block is deadlocked, which a GPU would hang
// on and the stand-in reports.
//
// A kernel without barriers or warp-collective instructions runs its
// threads one after another on one fiber: no switch per thread.
//
// Nothing runs concurrently inside a block, so its state needs no locks.
// Fibers and stacks are kept for the next block and launch. The switches
// are annotated for AddressSanitizer and ThreadSanitizer, as the host
// backend's fibers are (wrappers/host/Fibers.cpp): both follow the same
// pattern, and a primitive they could share belongs in wrappers/common once
// the stand-in may depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_BLOCKTHREADS_H
#define GPU_RUNNER_STANDIN_BLOCKTHREADS_H

#include "standin/Error.h"
#include "standin/KernelAbi.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

struct GridRun;

/// What a block's threads wait for, and how they ended.
enum class ThreadState : uint8_t {
  Runnable,
  AtBarrier,
  AtWarpOp,
  AtActiveMask,
  /// At an AMDGPU cross-lane instruction (WaveOp), with the lanes of its
  /// wave that execute it together.
  AtWaveOp,
  /// Returned or executed exit: no longer counted by barriers.
  Exited,
  /// Failed an assertion: ended, like an exited thread.
  Failed,
  /// Suspended for good (the grid failed): never resumed.
  Abandoned,
};

/// The warp-collective instructions, by what must match for lanes to meet:
/// the kind and its qualifiers, and the member mask (PTX ISA: each "will
/// cause executing thread to wait until all non-exited threads
/// corresponding to membermask have executed [it] with the same qualifiers
/// and same membermask value").
enum class WarpOpKind : uint8_t { Shfl, Vote, Match, Redux, WarpSync, Wmma };

class BlockThreads;

/// One GPU thread: its context (first, so that a context finds its slot),
/// what it waits for, and its fiber.
class ThreadSlot {
public:
  ThreadContext context;
  BlockThreads *block = nullptr;
  uint32_t linear = 0;
  ThreadState state = ThreadState::Exited;
  /// At a warp op: its key (kind and qualifiers; at a wave op, the WaveOp),
  /// mask and operands; the result the op gives it.
  uint32_t key = 0;
  uint32_t mask = 0;
  uint64_t a = 0;
  uint32_t b = 0, c = 0;
  uint64_t result = 0;
  /// wmma.mma: the descriptor and the fragments A, B, C, D of the lane.
  const WmmaDescriptor *wmma = nullptr;
  void *fragments[4] = {nullptr, nullptr, nullptr, nullptr};
  /// At a barrier: its number, thread count (0: all), flags, predicate.
  uint32_t barrierId = 0, barrierCount = 0, barrierFlags = 0;
  uint32_t predicate = 0;
  /// The call site it waits at, for messages and the aligned rule.
  uint32_t site = 0;
  /// The thread ended inside the kernel: its fiber cannot run the next one.
  bool endedInKernel = false;

  struct Fiber;
  std::unique_ptr<Fiber> fiber;
  ~ThreadSlot();
};

class BlockThreads {
public:
  /// Usable bytes of each thread's stack; a PROT_NONE guard page lies
  /// below it.
  static constexpr size_t kStackBytes = 128 * 1024;

  BlockThreads();
  ~BlockThreads();
  BlockThreads(const BlockThreads &) = delete;
  BlockThreads &operator=(const BlockThreads &) = delete;

  /// Runs block `index` (linear, x fastest) of `grid`. Failures go to the
  /// grid (GridRun::fail); printf's text and failed assertions to
  /// `output` and `assertions`.
  void run(GridRun &run, uint64_t index);

  /// The text the block printed (on stdout, and on stderr through ROCm's
  /// hostcall printf), and its assertion lines, in thread order.
  std::string output;
  std::string errorOutput;
  std::string assertions;
  /// ROCm hostcall printf's open messages, by the ids the block gave them.
  std::map<uint64_t, std::vector<uint64_t>> messages;
  uint64_t nextMessageId = 0;

  //===--------------------------------------------------------------------===//
  // Called on a thread's fiber, by the runtime functions.
  //===--------------------------------------------------------------------===//

  /// barrier.cta.{sync,arrive,red}: returns the reduction's result.
  uint32_t barrier(ThreadSlot &slot, uint32_t id, uint32_t count,
                   uint32_t flags, uint32_t predicate, uint32_t site);
  /// A warp-collective op of `kind` (with qualifiers `qualifiers`) among
  /// `mask`: waits for the non-exited lanes of the mask, then returns the
  /// lane's result (slot.result).
  uint64_t warpOp(ThreadSlot &slot, WarpOpKind kind, uint32_t qualifiers,
                  uint32_t mask, uint32_t site);
  /// nanosleep: the thread lets the block's others run first.
  void yield(ThreadSlot &slot);
  /// activemask: the lanes of the warp that reach this call site together.
  uint32_t activeMask(ThreadSlot &slot, uint32_t site);
  /// An AMDGPU cross-lane instruction (WaveOp `op`, operands slot.a and
  /// slot.b) among the lanes of the wave that execute it together: those
  /// at this call site once every non-exited lane of the wave is, or else
  /// once the block can go no further. Returns the lane's result.
  uint64_t waveOp(ThreadSlot &slot, uint32_t op, uint32_t site);
  /// exit, or an entry that returned: the thread ends.
  [[noreturn]] void exitThread(ThreadSlot &slot);
  /// A failed assertion: its line is kept, and the thread ends.
  [[noreturn]] void failAssertion(ThreadSlot &slot, const std::string &line);
  /// The grid failed (GridRun::fail was called): the thread stops for good.
  [[noreturn]] void abandonThread(ThreadSlot &slot);

  /// "kernel 'k', block (1, 0, 0)" and "thread (3, 0, 0)".
  std::string where() const;
  std::string threadName(uint32_t linear) const;
  /// The kernel's call site `site`, described.
  std::string describeSite(uint32_t site) const;

private:
  friend struct ThreadSlot::Fiber;
  struct Barrier {
    uint32_t waiting = 0;
    uint32_t count = 0;
    /// Arrivals per warp in this phase.
    std::vector<uint32_t> warpArrivals;
    uint32_t reduction = 0;
    bool reductionSet = false;
  };

  void prepare(uint32_t threadCount);
  void setThread(ThreadContext &context, uint32_t linear);
  void resume(ThreadSlot &slot);
  void suspend(ThreadSlot &slot);
  [[noreturn]] void stop(ThreadSlot &slot, ThreadState state);
  static void fiberMain(ThreadSlot &slot);
  void runThreads(ThreadSlot &slot);
  void resetFiber(ThreadSlot &slot);

  /// After `slot`'s thread ended: the barriers and warp ops it held up.
  void threadEnded(ThreadSlot &slot);
  bool isLive(uint32_t linear) const;
  uint32_t liveLanes(uint32_t warp) const;
  void wake(uint32_t linear, uint32_t except);
  /// Completes the barrier `id` if its rule holds; `arriving` continues.
  void checkBarrier(uint32_t id, uint32_t arriving);
  /// Completes the warp op of `key` and `mask` in `warp` if every
  /// non-exited lane of the mask is at it.
  void checkWarpOp(uint32_t warp, uint32_t key, uint32_t mask,
                   uint32_t arriving);
  void completeWarpOp(uint32_t warp, uint32_t key, uint32_t group);
  /// Each kind's results, for the lanes of `group` in `warp`.
  void completeShfl(uint32_t warp, uint32_t qualifiers, uint32_t group);
  void completeVote(uint32_t warp, uint32_t qualifiers, uint32_t group);
  void completeMatch(uint32_t warp, uint32_t qualifiers, uint32_t group);
  void completeRedux(uint32_t warp, uint32_t qualifiers, uint32_t group);
  void completeWmma(uint32_t warp, uint32_t group);
  /// Completes the wave op of `warp` if every non-exited lane of the wave
  /// is at it.
  void checkWaveOp(uint32_t warp, uint32_t arriving);
  /// The results of the wave op that the lanes of `group` are at.
  void completeWaveOp(uint32_t warp, uint64_t group, uint32_t arriving);
  /// The lanes waiting for convergence (activemask, wave ops) complete,
  /// site by site.
  bool completeActiveMasks();
  void reportDeadlock();
  /// Fails the grid with a misuse of a warp or barrier instruction.
  void misuse(const std::string &message);

  std::vector<std::unique_ptr<ThreadSlot>> slots;
  /// The threads to resume, in order; refilled as waits complete.
  std::vector<uint32_t> runQueue;

  GridRun *grid = nullptr;
  uint32_t blockId[3] = {0, 0, 0};
  uint32_t blockDim[3] = {1, 1, 1};
  uint32_t threadCount = 0;
  /// Lanes per warp: 32, or the AMDGPU kernel's wave size.
  uint32_t warpSize = kWarpSize;
  uint32_t warpCount = 0;
  uint32_t endedCount = 0;
  bool loopMode = false;
  uint32_t loopNext = 0;
  Barrier barriers[16];
  std::vector<char> shared;
  struct AssertLine {
    uint32_t linear;
    std::string line;
  };
  std::vector<AssertLine> assertLines;

  // Sanitizer bookkeeping of the OS thread's own stack while fibers run.
  const void *schedulerStackBottom = nullptr;
  size_t schedulerStackSize = 0;
  void *schedulerTsanFiber = nullptr;
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_BLOCKTHREADS_H
