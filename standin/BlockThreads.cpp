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

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

const char *describeKind(WarpOpKind kind) {
  switch (kind) {
  case WarpOpKind::Shfl:
    return "shfl.sync";
  case WarpOpKind::Vote:
    return "vote.sync";
  case WarpOpKind::Match:
    return "match.sync";
  case WarpOpKind::Redux:
    return "redux.sync";
  case WarpOpKind::WarpSync:
    return "bar.warp.sync";
  case WarpOpKind::Wmma:
    return "wmma.mma.sync";
  }
  return "a warp-collective instruction";
}

uint32_t makeKey(WarpOpKind kind, uint32_t qualifiers) {
  return (static_cast<uint32_t>(kind) << 24) | (qualifiers & 0xffffff);
}

WarpOpKind keyKind(uint32_t key) { return static_cast<WarpOpKind>(key >> 24); }

uint32_t keyQualifiers(uint32_t key) { return key & 0xffffff; }

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
  r[kLaneId] = linear % kWarpSize;
  r[kWarpId] = linear / kWarpSize;
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
  warpCount = (threadCount + kWarpSize - 1) / kWarpSize;
  loopMode = !run.kernel->needsFibers;
  loopNext = 0;
  endedCount = 0;
  output.clear();
  assertions.clear();
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
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    count += isLive(warp * kWarpSize + lane);
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
  uint32_t warp = slot.linear / kWarpSize;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    uint32_t linear = warp * kWarpSize + lane;
    if (linear >= threadCount)
      break;
    const ThreadSlot &other = *slots[linear];
    if (other.state == ThreadState::AtWarpOp)
      checkWarpOp(warp, other.key, other.mask, UINT32_MAX);
  }
}

void BlockThreads::wake(uint32_t linear, uint32_t except) {
  ThreadSlot &slot = *slots[linear];
  slot.state = ThreadState::Runnable;
  if (linear != except)
    runQueue.push_back(linear);
}

//===----------------------------------------------------------------------===//
// Barriers.
//===----------------------------------------------------------------------===//

uint32_t BlockThreads::barrier(ThreadSlot &slot, uint32_t id, uint32_t count,
                               uint32_t flags, uint32_t predicate,
                               uint32_t site) {
  if (loopMode) {
    misuse("thread " + threadName(loopNext - 1) + " of " + where() +
           " reached a barrier at " + describeSite(site) +
           ", which the stand-in did not expect of this kernel");
    abandonThread(slot);
  }
  // PTX ISA, barrier: "Source operand a specifies a logical barrier
  // resource as an immediate constant or register with value 0 through 15.
  // [...] When specifying a thread count, the value must be a multiple of
  // the warp size. Note that a non-zero thread count is required for
  // barrier{.cta}.arrive."
  if (id > 15 || count % kWarpSize != 0 || count > threadCount + kWarpSize ||
      ((flags & kBarrierArrive) && count == 0)) {
    misuse("thread " + threadName(slot.linear) + " of " + where() +
           " executes barrier " + std::to_string(id) + " with thread count " +
           std::to_string(count) + " at " + describeSite(site) +
           ": the PTX ISA (barrier) allows barriers 0 to 15 and counts that "
           "are multiples of the warp size, non-zero for barrier.arrive");
    abandonThread(slot);
  }
  Barrier &bar = barriers[id];
  if (bar.waiting > 0 && bar.count != count) {
    misuse("the threads of " + where() + " wait at barrier " +
           std::to_string(id) + " with different thread counts (" +
           std::to_string(bar.count) + " and " + std::to_string(count) +
           " at " + describeSite(site) + ")");
    abandonThread(slot);
  }
  bar.count = count;
  uint32_t op = (flags >> kBarrierRedShift) & 3;
  if (op != kBarrierRedNone) {
    bool value = predicate != 0;
    if (!bar.reductionSet)
      bar.reduction = op == kBarrierRedAnd ? 1 : 0;
    bar.reductionSet = true;
    if (op == kBarrierRedPopc)
      bar.reduction += value;
    else if (op == kBarrierRedAnd)
      bar.reduction &= value;
    else
      bar.reduction |= value;
  }
  ++bar.warpArrivals[slot.linear / kWarpSize];
  if (flags & kBarrierArrive) {
    // barrier.arrive "does not cause any waiting by the executing threads".
    checkBarrier(id, slot.linear);
    return 0;
  }
  slot.state = ThreadState::AtBarrier;
  slot.barrierId = id;
  slot.barrierCount = count;
  slot.barrierFlags = flags;
  slot.site = site;
  ++bar.waiting;
  checkBarrier(id, slot.linear);
  if (slot.state != ThreadState::Runnable)
    suspend(slot);
  if (grid->failed.load(std::memory_order_relaxed))
    abandonThread(slot);
  return static_cast<uint32_t>(slot.result);
}

void BlockThreads::checkBarrier(uint32_t id, uint32_t arriving) {
  Barrier &bar = barriers[id];
  if (bar.count == 0) {
    // PTX ISA, barrier: "If no thread count is specified, all threads in the
    // CTA participate"; the CUDA C++ Programming Guide (Independent Thread
    // Scheduling) and the PTX ISA's exit: the barrier waits for the
    // non-exited threads only.
    if (bar.waiting == 0 || bar.waiting < threadCount - endedCount)
      return;
  } else {
    // "barrier{.cta} instruction causes executing thread to wait for all
    // non-exited threads from its warp and marks warps' arrival at
    // barrier": the count is met by whole warps.
    uint32_t warps = 0;
    for (uint32_t warp = 0; warp < warpCount; ++warp)
      if (bar.warpArrivals[warp] > 0 &&
          bar.warpArrivals[warp] >= liveLanes(warp))
        ++warps;
    if (uint64_t(warps) * kWarpSize < bar.count)
      return;
  }
  // .aligned: "all threads in the warp must execute the same barrier
  // instruction"; otherwise the behaviour is undefined.
  std::vector<uint32_t> warpSites(warpCount, UINT32_MAX);
  for (uint32_t i = 0; i < threadCount; ++i) {
    const ThreadSlot &slot = *slots[i];
    if (slot.state != ThreadState::AtBarrier || slot.barrierId != id ||
        !(slot.barrierFlags & kBarrierAligned))
      continue;
    uint32_t &seen = warpSites[i / kWarpSize];
    if (seen == UINT32_MAX) {
      seen = slot.site;
    } else if (seen != slot.site) {
      misuse("the threads of warp " + std::to_string(i / kWarpSize) + " of " +
             where() + " reach barrier " + std::to_string(id) +
             " at different instructions (" + describeSite(seen) + " and " +
             describeSite(slot.site) +
             "): the PTX ISA (barrier) makes that undefined for "
             "barrier.sync.aligned, which every thread of a warp must "
             "execute together");
      return;
    }
  }
  uint32_t result = bar.reduction;
  for (uint32_t i = 0; i < threadCount; ++i) {
    ThreadSlot &slot = *slots[i];
    if (slot.state != ThreadState::AtBarrier || slot.barrierId != id)
      continue;
    slot.result = result;
    wake(i, arriving);
  }
  uint32_t count = bar.count;
  bar = Barrier();
  bar.count = count;
  bar.warpArrivals.assign(warpCount, 0);
}

//===----------------------------------------------------------------------===//
// Warp-collective instructions.
//===----------------------------------------------------------------------===//

uint64_t BlockThreads::warpOp(ThreadSlot &slot, WarpOpKind kind,
                              uint32_t qualifiers, uint32_t mask,
                              uint32_t site) {
  if (loopMode) {
    misuse("thread " + threadName(loopNext - 1) + " of " + where() +
           " reached " + describeKind(kind) + " at " + describeSite(site) +
           ", which the stand-in did not expect of this kernel");
    abandonThread(slot);
  }
  uint32_t lane = slot.linear % kWarpSize;
  // PTX ISA: "The behavior of shfl.sync is undefined if the executing
  // thread is not in the membermask" (and so for vote.sync, match.sync,
  // redux.sync; bar.warp.sync: "each thread must have its own bit set").
  if (!(mask >> lane & 1)) {
    misuse("lane " + std::to_string(lane) + " (thread " +
           threadName(slot.linear) + ") of " + where() + " executes " +
           describeKind(kind) + " at " + describeSite(site) +
           " with member mask " + hex(mask) +
           ", which does not include it: the PTX ISA makes that undefined");
    abandonThread(slot);
  }
  slot.key = makeKey(kind, qualifiers);
  slot.mask = mask;
  slot.site = site;
  slot.state = ThreadState::AtWarpOp;
  checkWarpOp(slot.linear / kWarpSize, slot.key, mask, slot.linear);
  if (slot.state != ThreadState::Runnable)
    suspend(slot);
  if (grid->failed.load(std::memory_order_relaxed))
    abandonThread(slot);
  return slot.result;
}

void BlockThreads::checkWarpOp(uint32_t warp, uint32_t key, uint32_t mask,
                               uint32_t arriving) {
  uint32_t group = 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    uint32_t linear = warp * kWarpSize + lane;
    // Lanes past the block's last thread never exist; ended ones are not
    // waited for.
    if (!isLive(linear))
      continue;
    const ThreadSlot &slot = *slots[linear];
    if (slot.state != ThreadState::AtWarpOp || slot.key != key ||
        slot.mask != mask)
      return;
    group |= 1u << lane;
  }
  if (group == 0)
    return;
  completeWarpOp(warp, key, group);
  if (grid->failed.load(std::memory_order_relaxed))
    return;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    if (group >> lane & 1)
      wake(warp * kWarpSize + lane, arriving);
}

void BlockThreads::completeWarpOp(uint32_t warp, uint32_t key, uint32_t group) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * kWarpSize + lane];
  };
  uint32_t qualifiers = keyQualifiers(key);
  switch (keyKind(key)) {
  case WarpOpKind::Shfl: {
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(group >> lane & 1))
        continue;
      ThreadSlot &slot = lanes(lane);
      // PTX ISA, shfl.sync, as its pseudo-code says: bval = b[4:0],
      // cval = c[4:0], segmask = c[12:8].
      int32_t bval = static_cast<int32_t>(slot.b & 0x1f);
      int32_t cval = static_cast<int32_t>(slot.c & 0x1f);
      int32_t segmask = static_cast<int32_t>((slot.c >> 8) & 0x1f);
      int32_t self = static_cast<int32_t>(lane);
      int32_t maxLane = (self & segmask) | (cval & ~segmask);
      int32_t minLane = self & segmask;
      int32_t j = 0;
      bool pval = false;
      switch (qualifiers) {
      case kShflUp:
        j = self - bval;
        pval = j >= maxLane;
        break;
      case kShflDown:
        j = self + bval;
        pval = j <= maxLane;
        break;
      case kShflBfly:
        j = self ^ bval;
        pval = j <= maxLane;
        break;
      default:
        j = minLane | (bval & ~segmask);
        pval = j <= maxLane;
        break;
      }
      if (!pval)
        j = self;
      // "Threads may only read data from another thread which is actively
      // participating in the __shfl_sync() command. If the target thread is
      // inactive, the retrieved value is undefined." (CUDA C++ Programming
      // Guide, Warp Shuffle Functions)
      if (!(group >> j & 1)) {
        uint32_t source = warp * kWarpSize + static_cast<uint32_t>(j);
        std::string why =
            source >= threadCount ? "which the block does not have"
            : !isLive(source)     ? "which has exited"
            : !(slot.mask >> j & 1)
                ? "which is not in the member mask " + hex(slot.mask)
                : "which does not take part";
        misuse("lane " + std::to_string(lane) + " (thread " +
               threadName(slot.linear) + ") of " + where() + " reads lane " +
               std::to_string(j) + " with shfl.sync at " +
               describeSite(slot.site) + ", " + why +
               ": the value it reads is undefined on a GPU");
        return;
      }
      uint32_t value = static_cast<uint32_t>(lanes(j).a);
      slot.result = uint64_t(value) | (uint64_t(pval) << 32);
    }
    return;
  }
  case WarpOpKind::Vote: {
    // PTX ISA, vote.sync: .all/.any/.uni over the non-exited threads of the
    // member mask; .ballot sets the bit of each lane whose predicate is
    // true (lanes outside the mask give 0).
    uint32_t ballot = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if ((group >> lane & 1) && lanes(lane).a)
        ballot |= 1u << lane;
    uint64_t result = 0;
    switch (qualifiers) {
    case kVoteAll:
      result = ballot == group;
      break;
    case kVoteAny:
      result = ballot != 0;
      break;
    case kVoteUni:
      result = ballot == 0 || ballot == group;
      break;
    default:
      result = ballot;
      break;
    }
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (group >> lane & 1)
        lanes(lane).result = result;
    return;
  }
  case WarpOpKind::Match: {
    // PTX ISA, match.sync: .any gives the mask of the lanes whose value
    // equals the lane's own; .all gives the whole mask, and p true, when
    // every lane's value is the same, else 0 and p false.
    bool all = qualifiers & 1;
    bool same = true;
    uint64_t first = 0;
    bool haveFirst = false;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(group >> lane & 1))
        continue;
      if (!haveFirst) {
        first = lanes(lane).a;
        haveFirst = true;
      } else if (lanes(lane).a != first) {
        same = false;
      }
    }
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(group >> lane & 1))
        continue;
      ThreadSlot &slot = lanes(lane);
      if (all) {
        slot.result = same ? (uint64_t(group) | (uint64_t(1) << 32)) : 0;
        continue;
      }
      uint32_t matching = 0;
      for (uint32_t other = 0; other < kWarpSize; ++other)
        if ((group >> other & 1) && lanes(other).a == slot.a)
          matching |= 1u << other;
      slot.result = matching;
    }
    return;
  }
  case WarpOpKind::Redux: {
    // PTX ISA, redux.sync: the operation over the values of the non-exited
    // threads of the member mask, every lane getting the result.
    bool haveFirst = false;
    uint32_t result = 0;
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      if (!(group >> lane & 1))
        continue;
      uint32_t value = static_cast<uint32_t>(lanes(lane).a);
      if (!haveFirst) {
        result = value;
        haveFirst = true;
        continue;
      }
      switch (qualifiers) {
      case kReduxAdd:
        result += value;
        break;
      case kReduxMin:
        result = static_cast<uint32_t>(std::min(static_cast<int32_t>(result),
                                                static_cast<int32_t>(value)));
        break;
      case kReduxMax:
        result = static_cast<uint32_t>(std::max(static_cast<int32_t>(result),
                                                static_cast<int32_t>(value)));
        break;
      case kReduxUmin:
        result = std::min(result, value);
        break;
      case kReduxUmax:
        result = std::max(result, value);
        break;
      case kReduxAnd:
        result &= value;
        break;
      case kReduxOr:
        result |= value;
        break;
      default:
        result ^= value;
        break;
      }
    }
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      if (group >> lane & 1)
        lanes(lane).result = result;
    return;
  }
  case WarpOpKind::WarpSync:
    return;
  case WarpOpKind::Wmma: {
    // The fragments are gathered in lane order; a lane missing from the
    // warp has none to give.
    if (group != 0xffffffffu) {
      misuse("wmma.mma.sync in warp " + std::to_string(warp) + " of " +
             where() + " at " + describeSite(lanes(0).site) +
             " is executed by lanes " + hex(group) +
             " only: the PTX ISA (wmma) requires all threads of the warp");
      return;
    }
    ThreadSlot *all[kWarpSize];
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      all[lane] = &lanes(lane);
    runWmma(all);
    return;
  }
  }
}

uint32_t BlockThreads::activeMask(ThreadSlot &slot, uint32_t site) {
  if (loopMode) {
    misuse("thread " + threadName(loopNext - 1) + " of " + where() +
           " reached activemask at " + describeSite(site) +
           ", which the stand-in did not expect of this kernel");
    abandonThread(slot);
  }
  slot.state = ThreadState::AtActiveMask;
  slot.site = site;
  suspend(slot);
  if (grid->failed.load(std::memory_order_relaxed))
    abandonThread(slot);
  return static_cast<uint32_t>(slot.result);
}

bool BlockThreads::completeActiveMasks() {
  // CUDA C++ Programming Guide, __activemask(): "Returns a 32-bit integer
  // mask of all currently active threads in the calling warp." The stand-in
  // has no program counter to compare: the lanes active together are those
  // that reach the same call site before the block can go no further.
  bool completed = false;
  for (uint32_t warp = 0; warp < warpCount; ++warp) {
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
      uint32_t linear = warp * kWarpSize + lane;
      if (linear >= threadCount)
        break;
      ThreadSlot &leader = *slots[linear];
      if (leader.state != ThreadState::AtActiveMask)
        continue;
      uint32_t mask = 0;
      for (uint32_t other = lane; other < kWarpSize; ++other) {
        uint32_t o = warp * kWarpSize + other;
        if (o < threadCount && slots[o]->state == ThreadState::AtActiveMask &&
            slots[o]->site == leader.site)
          mask |= 1u << other;
      }
      for (uint32_t other = lane; other < kWarpSize; ++other) {
        if (!(mask >> other & 1))
          continue;
        ThreadSlot &slot = *slots[warp * kWarpSize + other];
        slot.result = mask;
        wake(warp * kWarpSize + other, UINT32_MAX);
      }
      completed = true;
    }
  }
  return completed;
}

void BlockThreads::reportDeadlock() {
  std::string message = "deadlock in " + where() + ": ";
  size_t described = 0;
  for (uint32_t i = 0; i < threadCount && described < 4; ++i) {
    const ThreadSlot &slot = *slots[i];
    std::string what;
    if (slot.state == ThreadState::AtBarrier)
      what = "waits at barrier " + std::to_string(slot.barrierId) +
             (slot.barrierCount
                  ? " for " + std::to_string(slot.barrierCount) + " threads"
                  : std::string()) +
             " (" + describeSite(slot.site) + ")";
    else if (slot.state == ThreadState::AtWarpOp)
      what = "waits at " + std::string(describeKind(keyKind(slot.key))) +
             " with member mask " + hex(slot.mask) + " (" +
             describeSite(slot.site) + ")";
    else
      continue;
    // Threads stuck the same way are described once.
    uint32_t last = i;
    while (last + 1 < threadCount) {
      const ThreadSlot &next = *slots[last + 1];
      if (next.state != slot.state || next.site != slot.site ||
          next.mask != slot.mask || next.barrierId != slot.barrierId)
        break;
      ++last;
    }
    message +=
        std::string(described ? "; " : "") +
        (last == i ? "thread " + threadName(i)
                   : "threads " + threadName(i) + " to " + threadName(last)) +
        " " + what;
    ++described;
    i = last;
  }
  message += std::string("; ") + std::to_string(endedCount) +
             " of the block's " + std::to_string(threadCount) +
             " threads have ended. A GPU would hang here.";
  grid->fail(Error::LaunchFailed, message);
}

void BlockThreads::misuse(const std::string &message) {
  grid->fail(Error::LaunchFailed, message);
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
