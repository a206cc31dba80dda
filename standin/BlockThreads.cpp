//===- BlockThreads.cpp - The GPU threads of one block, as fibers ---------===//
//
// See BlockThreads.h. Each slot owns a Boost.Context fiber that runs GPU
// threads in a loop: call the kernel's entry, end the thread, switch back to
// the scheduler, and on the next resume start the next block's thread in
// that slot. A thread that ends inside the kernel (exit, a failed
// assertion, a failed grid) never returns to that loop: its fiber is
// dropped without unwinding (the frames are the JIT'd kernel's, which hold
// nothing to release) and the slot gets a fresh one.
//
// The waits (barriers, warp-collective instructions, activemask) are
// BlockCollectives.cpp's.
//
//===----------------------------------------------------------------------===//

#include "standin/BlockThreads.h"

#include "standin/KernelRuntime.h"
#include "wrappers/common/Sanitizers.h"

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#ifdef GPU_RUNNER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef GPU_RUNNER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace gpu_runner {
namespace standin {
namespace {

namespace bctx = boost::context;

size_t pageBytes() {
  static const size_t bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

/// Boost's StackAllocator for stacks a slot owns.
struct SlotStack {
  bctx::stack_context allocate() { std::abort(); } // preallocated: unused
  void deallocate(bctx::stack_context &) noexcept {}
};

} // namespace

//===----------------------------------------------------------------------===//
// Fibers.
//===----------------------------------------------------------------------===//

struct ThreadSlot::Fiber {
  /// How the scheduler resumes the fiber; empty while it runs.
  bctx::fiber resumeFiber;
  /// How the fiber switches back; empty while suspended.
  bctx::fiber caller;
  /// A guard page, then kStackBytes of stack.
  char *mapping = nullptr;
  void *asanFakeStack = nullptr;
  void *tsanFiber = nullptr;

  char *stackBottom() const { return mapping + pageBytes(); }

  ~Fiber() {
    // Dropped where it waits, never resumed to return: boost's destructor
    // would unwind it by throwing through the kernel's frames.
    new (&resumeFiber) bctx::fiber();
#ifdef GPU_RUNNER_TSAN
    __tsan_destroy_fiber(tsanFiber);
#endif
    if (mapping)
      munmap(mapping, pageBytes() + BlockThreads::kStackBytes);
  }
};

ThreadSlot::~ThreadSlot() = default;

BlockThreads::BlockThreads() = default;

BlockThreads::~BlockThreads() = default;

void BlockThreads::prepare(uint32_t count) {
  while (slots.size() < count) {
    auto slot = std::make_unique<ThreadSlot>();
    slot->block = this;
    slot->linear = static_cast<uint32_t>(slots.size());
    slot->fiber = std::make_unique<ThreadSlot::Fiber>();
    size_t bytes = pageBytes() + kStackBytes;
    void *mapping =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED) {
      std::fprintf(stderr, "gpu-runner stand-in: cannot map the stack of a "
                           "GPU thread\n");
      std::abort();
    }
    // The guard page below the stack turns an overflow into a fault.
    mprotect(mapping, pageBytes(), PROT_NONE);
    slot->fiber->mapping = static_cast<char *>(mapping);
#ifdef GPU_RUNNER_TSAN
    slot->fiber->tsanFiber = __tsan_create_fiber(0);
#endif
    slots.push_back(std::move(slot));
  }
}

void BlockThreads::resetFiber(ThreadSlot &slot) {
  ThreadSlot::Fiber &fiber = *slot.fiber;
  new (&fiber.resumeFiber) bctx::fiber();
  new (&fiber.caller) bctx::fiber();
  fiber.asanFakeStack = nullptr;
#ifdef GPU_RUNNER_ASAN
  // Frames that never returned leave their redzones poisoned.
  __asan_unpoison_memory_region(fiber.stackBottom(), kStackBytes);
#endif
#ifdef GPU_RUNNER_TSAN
  __tsan_destroy_fiber(fiber.tsanFiber);
  fiber.tsanFiber = __tsan_create_fiber(0);
#endif
}

void BlockThreads::resume(ThreadSlot &slot) {
  ThreadSlot::Fiber &fiber = *slot.fiber;
  if (!fiber.resumeFiber) {
    bctx::stack_context stack;
    stack.size = kStackBytes;
    stack.sp = fiber.stackBottom() + kStackBytes;
    ThreadSlot *slotPointer = &slot;
#ifdef GPU_RUNNER_TSAN
    void *creator = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(fiber.tsanFiber, 0);
#endif
    fiber.resumeFiber = bctx::fiber(
        std::allocator_arg, bctx::preallocated(stack.sp, stack.size, stack),
        SlotStack(), [slotPointer](bctx::fiber &&caller) -> bctx::fiber {
          slotPointer->fiber->caller = std::move(caller);
#ifdef GPU_RUNNER_ASAN
          __sanitizer_finish_switch_fiber(
              slotPointer->fiber->asanFakeStack,
              &slotPointer->block->schedulerStackBottom,
              &slotPointer->block->schedulerStackSize);
#endif
          fiberMain(*slotPointer);
          std::abort(); // fiberMain never returns
        });
#ifdef GPU_RUNNER_TSAN
    __tsan_switch_to_fiber(creator, 0);
#endif
  }
#ifdef GPU_RUNNER_ASAN
  void *fakeStack = nullptr;
  __sanitizer_start_switch_fiber(&fakeStack, fiber.stackBottom(), kStackBytes);
#endif
#ifdef GPU_RUNNER_TSAN
  __tsan_switch_to_fiber(fiber.tsanFiber, 0);
#endif
  fiber.resumeFiber = std::move(fiber.resumeFiber).resume();
#ifdef GPU_RUNNER_ASAN
  __sanitizer_finish_switch_fiber(fakeStack, nullptr, nullptr);
#endif
}

void BlockThreads::suspend(ThreadSlot &slot) {
  ThreadSlot::Fiber &fiber = *slot.fiber;
#ifdef GPU_RUNNER_ASAN
  __sanitizer_start_switch_fiber(&fiber.asanFakeStack, schedulerStackBottom,
                                 schedulerStackSize);
#endif
#ifdef GPU_RUNNER_TSAN
  __tsan_switch_to_fiber(schedulerTsanFiber, 0);
#endif
  fiber.caller = std::move(fiber.caller).resume();
#ifdef GPU_RUNNER_ASAN
  // The stack of the OS thread that resumed the fiber: blocks of one
  // BlockThreads may run on different OS threads over time.
  __sanitizer_finish_switch_fiber(fiber.asanFakeStack, &schedulerStackBottom,
                                  &schedulerStackSize);
#endif
}

void BlockThreads::stop(ThreadSlot &slot, ThreadState state) {
  slot.state = state;
  slot.endedInKernel = true;
  suspend(slot);
  std::abort(); // a stopped thread is never resumed
}

void BlockThreads::fiberMain(ThreadSlot &slot) {
  while (true) {
    BlockThreads &block = *slot.block;
    block.runThreads(slot);
    slot.state = ThreadState::Exited;
    block.threadEnded(slot);
    block.suspend(slot);
  }
}

namespace {

/// Calls a kernel's entry with the thread's private memory set to the
/// stack below this frame: the kernel's own frames.
__attribute__((noinline)) void
callEntry(KernelEntry entry, ThreadContext &context, void **params) {
  volatile char marker = 0;
  context.stackHigh = reinterpret_cast<uintptr_t>(&marker);
  entry(&context, params);
}

} // namespace

void BlockThreads::runThreads(ThreadSlot &slot) {
  GridRun &run = *grid;
  slot.context.stackLow =
      reinterpret_cast<uintptr_t>(slot.fiber->stackBottom());
  if (!loopMode) {
    callEntry(run.kernel->entry, slot.context, run.params.data());
    return;
  }
  // One fiber runs the threads one after another: the kernel never waits
  // for another thread.
  while (loopNext < threadCount &&
         !run.failed.load(std::memory_order_relaxed)) {
    uint32_t linear = loopNext++;
    setThread(slot.context, linear);
    callEntry(run.kernel->entry, slot.context, run.params.data());
  }
}

void BlockThreads::setThread(ThreadContext &context, uint32_t linear) {
  uint32_t *r = context.registers;
  r[kTidX] = linear % blockDim[0];
  r[kTidY] = (linear / blockDim[0]) % blockDim[1];
  r[kTidZ] = linear / (blockDim[0] * blockDim[1]);
  // PTX ISA, %laneid: "A predefined, read-only special register that
  // returns the thread's lane within the warp"; warps are made of
  // consecutive linear thread ids (CUDA C++ Programming Guide, "SIMT
  // Architecture").
  r[kLaneId] = linear % warpSize;
  r[kWarpId] = linear / warpSize;
}

//===----------------------------------------------------------------------===//
// Running a block.
//===----------------------------------------------------------------------===//

void BlockThreads::run(GridRun &run, uint64_t index) {
  grid = &run;
  const KernelProgram &program = *run.program;
  for (int i = 0; i < 3; ++i)
    blockDim[i] = run.block[i];
  blockId[0] = static_cast<uint32_t>(index % run.grid[0]);
  blockId[1] = static_cast<uint32_t>((index / run.grid[0]) % run.grid[1]);
  blockId[2] =
      static_cast<uint32_t>(index / (uint64_t(run.grid[0]) * run.grid[1]));
  threadCount = blockDim[0] * blockDim[1] * blockDim[2];
  warpSize = run.kernel->warpSize;
  warpCount = (threadCount + warpSize - 1) / warpSize;
  loopMode = !run.kernel->needsFibers;
  loopNext = 0;
  endedCount = 0;
  output.clear();
  errorOutput.clear();
  assertions.clear();
  messages.clear();
  nextMessageId = 0;
  assertLines.clear();
  for (Barrier &barrier : barriers) {
    barrier = Barrier();
    barrier.warpArrivals.assign(warpCount, 0);
  }
  uint64_t sharedBytes =
      program.getDynamicSharedOffset() + run.dynamicSharedBytes;
  if (shared.size() < sharedBytes + 1)
    shared.resize(sharedBytes + 1);
#ifdef GPU_RUNNER_TSAN
  schedulerTsanFiber = __tsan_get_current_fiber();
#endif

  uint32_t fibers = loopMode ? 1 : threadCount;
  prepare(fibers);
  // PTX ISA, "Special Registers"; a launch without clusters runs as if each
  // block were a cluster of its own (%cluster_nctaid is 1 x 1 x 1).
  ThreadContext base;
  std::memset(&base, 0, sizeof(base));
  uint32_t *r = base.registers;
  for (int i = 0; i < 3; ++i) {
    r[kNtidX + i] = blockDim[i];
    r[kCtaidX + i] = blockId[i];
    r[kNctaidX + i] = run.grid[i];
    r[kClusterNctaidX + i] = run.cluster[i];
    r[kClusterCtaidX + i] = blockId[i] % run.cluster[i];
    r[kClusterIdX + i] = blockId[i] / run.cluster[i];
    r[kNclusterIdX + i] = run.grid[i] / run.cluster[i];
  }
  r[kClusterCtarank] =
      r[kClusterCtaidX] +
      run.cluster[0] * (r[kClusterCtaidY] + run.cluster[1] * r[kClusterCtaidZ]);
  r[kClusterNctarank] = run.cluster[0] * run.cluster[1] * run.cluster[2];
  r[kIsExplicitCluster] = run.explicitCluster ? 1 : 0;
  r[kNwarpId] = 64;
  r[kSmId] = static_cast<uint32_t>(index % 132);
  r[kNsmId] = 132;
  r[kDynamicSmemSize] = static_cast<uint32_t>(run.dynamicSharedBytes);
  r[kTotalSmemSize] = static_cast<uint32_t>(sharedBytes);
  // PTX ISA, %gridid: "a temporal grid launch number", distinct for grids
  // that run at the same time.
  r[kGridId] = static_cast<uint32_t>(run.gridId);
  base.shared = shared.data();
  base.sharedBytes = sharedBytes;
  base.grid = &run;

  runQueue.clear();
  for (uint32_t i = 0; i < fibers; ++i) {
    ThreadSlot &slot = *slots[i];
    slot.context = base;
    slot.context.slot = &slot;
    setThread(slot.context, i);
    slot.state = ThreadState::Runnable;
    runQueue.push_back(i);
  }

  // Resume what can run, in order, until every thread has ended; waits that
  // complete queue the threads they release.
  while (true) {
    // By index: resume() may append to runQueue, which would invalidate a
    // range-for's iterators.
    // NOLINTNEXTLINE(modernize-loop-convert)
    for (size_t k = 0; k < runQueue.size(); ++k) {
      ThreadSlot &slot = *slots[runQueue[k]];
      if (slot.state != ThreadState::Runnable)
        continue;
      resume(slot);
      if (run.failed.load(std::memory_order_relaxed))
        break;
    }
    runQueue.clear();
    if (run.failed.load(std::memory_order_relaxed))
      break;
    if (loopMode) {
      ThreadSlot &slot = *slots[0];
      if (slot.state == ThreadState::Exited && loopNext >= threadCount)
        break;
      // A thread ended inside the kernel (exit, an assertion): the next
      // ones run on a fresh fiber.
      resetFiber(slot);
      slot.state = ThreadState::Runnable;
      runQueue.push_back(0);
      continue;
    }
    if (endedCount == threadCount)
      break;
    if (completeActiveMasks())
      continue;
    reportDeadlock();
    break;
  }

  // Threads that ended inside the kernel, or were left waiting by a failed
  // grid, get fresh fibers for the next block.
  for (uint32_t i = 0; i < fibers; ++i) {
    ThreadSlot &slot = *slots[i];
    if (slot.state != ThreadState::Exited || slot.endedInKernel)
      resetFiber(slot);
    slot.endedInKernel = false;
  }
  // A failed grid reports its failure; the lines of failed assertions are
  // printed in the order of the threads' linear ids, as the host backend
  // prints them.
  std::stable_sort(assertLines.begin(), assertLines.end(),
                   [](const AssertLine &a, const AssertLine &b) {
                     return a.linear < b.linear;
                   });
  for (const AssertLine &line : assertLines)
    assertions += line.line;
}

//===----------------------------------------------------------------------===//
// Ending threads.
//===----------------------------------------------------------------------===//

bool BlockThreads::isLive(uint32_t linear) const {
  if (linear >= threadCount)
    return false;
  ThreadState state = slots[linear]->state;
  return state != ThreadState::Exited && state != ThreadState::Failed &&
         state != ThreadState::Abandoned;
}

uint32_t BlockThreads::liveLanes(uint32_t warp) const {
  uint32_t count = 0;
  for (uint32_t lane = 0; lane < warpSize; ++lane)
    count += isLive(warp * warpSize + lane);
  return count;
}

void BlockThreads::exitThread(ThreadSlot &slot) {
  if (loopMode) {
    // The other threads go on, from the next one, on a fresh fiber.
    stop(slot, ThreadState::Abandoned);
  }
  slot.state = ThreadState::Exited;
  // The fiber is dropped once the block ends.
  slot.endedInKernel = true;
  threadEnded(slot);
  suspend(slot);
  std::abort();
}

void BlockThreads::failAssertion(ThreadSlot &slot, const std::string &line) {
  assertLines.push_back({loopMode ? loopNext - 1 : slot.linear, line});
  if (loopMode)
    stop(slot, ThreadState::Abandoned);
  slot.state = ThreadState::Failed;
  slot.endedInKernel = true;
  threadEnded(slot);
  suspend(slot);
  std::abort();
}

void BlockThreads::abandonThread(ThreadSlot &slot) {
  stop(slot, ThreadState::Abandoned);
}

void BlockThreads::threadEnded(ThreadSlot &slot) {
  if (loopMode)
    return;
  ++endedCount;
  // PTX ISA, exit: "As threads exit, barriers waiting on all threads are
  // checked to see if the exiting threads are the only threads that have
  // not yet made it to a barrier [...]. If the exiting threads are holding
  // up the barrier, the barrier is released." The warp of a counted barrier
  // may now have arrived too.
  for (uint32_t id = 0; id < 16; ++id)
    if (barriers[id].waiting > 0)
      checkBarrier(id, UINT32_MAX);
  // The warp ops of its warp that waited for it.
  uint32_t warp = slot.linear / warpSize;
  for (uint32_t lane = 0; lane < warpSize; ++lane) {
    uint32_t linear = warp * warpSize + lane;
    if (linear >= threadCount)
      break;
    const ThreadSlot &other = *slots[linear];
    if (other.state == ThreadState::AtWarpOp)
      checkWarpOp(warp, other.key, other.mask, UINT32_MAX);
    if (other.state == ThreadState::AtWaveOp) {
      checkWaveOp(warp, UINT32_MAX);
      break;
    }
  }
}

void BlockThreads::wake(uint32_t linear, uint32_t except) {
  ThreadSlot &slot = *slots[linear];
  slot.state = ThreadState::Runnable;
  if (linear != except)
    runQueue.push_back(linear);
}

//===----------------------------------------------------------------------===//
// Messages.
//===----------------------------------------------------------------------===//

std::string BlockThreads::where() const {
  return "kernel '" + grid->kernel->name + "', block (" +
         std::to_string(blockId[0]) + ", " + std::to_string(blockId[1]) + ", " +
         std::to_string(blockId[2]) + ")";
}

std::string BlockThreads::threadName(uint32_t linear) const {
  return "(" + std::to_string(linear % blockDim[0]) + ", " +
         std::to_string((linear / blockDim[0]) % blockDim[1]) + ", " +
         std::to_string(linear / (blockDim[0] * blockDim[1])) + ")";
}

std::string BlockThreads::describeSite(uint32_t site) const {
  return grid->program->describeSite(site);
}

} // namespace standin
} // namespace gpu_runner
