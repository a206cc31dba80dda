//===- Fibers.cpp - The GPU threads of one block, as fibers ---------------===//
//
// See Fibers.h. Each thread slot owns a Boost.Context fiber that runs GPU
// threads in a loop: call the kernel's entry, mark the thread finished,
// switch back to the scheduler, and on the next resume start the next
// block's thread in that slot. A barrier or shuffle records what the thread
// waits for and switches back; the scheduler resumes threads in batches and
// decides what happens next only once every thread is blocked or finished,
// so a barrier costs one switch into and one out of each fiber.
//
// A failed block (deadlock, misuse) leaves fibers suspended inside the
// kernel. They are abandoned, never resumed or unwound: the errors are fatal
// to the program, and the unit tests reuse the slots with fresh fibers.
//
// The switches are annotated for AddressSanitizer and ThreadSanitizer, which
// otherwise cannot follow a change of stack. A fiber never returns, not even
// when its FiberBlock goes away (it is dropped where it waits): returning
// through its entry's frames after the last switch would pop frames off
// ThreadSanitizer's shadow call stack of the scheduling thread, which then
// underflows and crashes.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/Fibers.h"

#include "wrappers/common/Sanitizers.h"
#include "wrappers/host/FaultHandler.h"

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numeric>

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

namespace {

namespace bctx = boost::context;

constexpr uint32_t kSubgroupSize = static_cast<uint32_t>(kHostSubgroupSize);

size_t pageBytes() {
  static const size_t bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

/// Boost's StackAllocator for the stacks a slot owns: boost gives a stack
/// back when its fiber ends, and the slot keeps it for the next fiber.
struct SlotStack {
  bctx::stack_context allocate() { std::abort(); } // preallocated: unused
  void deallocate(bctx::stack_context &) noexcept {}
};

/// Barriers and shuffles are told apart by their location strings; the
/// lowering passes one constant per op, so pointers almost always decide.
bool sameLoc(const char *a, const char *b) {
  return a == b || (a && b && std::strcmp(a, b) == 0);
}

/// A Status at the op `loc`, or at `op` alone when the loc is missing.
Status errorAt(const char *loc, const char *op, std::string message) {
  return Status::errorAt(loc && *loc ? loc : op, std::move(message));
}

} // namespace

enum class FiberBlock::ThreadState : uint8_t {
  Running,     // runnable or running
  AtBarrier,   // waits at `loc`
  AtShuffle,   // waits at `loc` with value, sourceLane and width
  AtBroadcast, // waits at `loc` with value and sourceLane (-1: first active)
  AtGather,    // waits at `loc` with gatherSlice, gatherTarget, gatherBytes
  Finished,    // its entry returned; the fiber waits for the next block
  Failed,      // failed an assertion; its fiber is never resumed
};

struct FiberBlock::Slot {
  /// The thread's context; `context.runtime` points back at the slot.
  HostKernelContext context;
  FiberBlock *block = nullptr;
  uint32_t linear = 0;
  ThreadState state = ThreadState::Finished;
  const char *loc = nullptr;
  uint64_t value = 0;
  uint64_t result = 0;
  int32_t sourceLane = 0;
  int32_t width = 0;
  /// At a gather: the thread's slice, where the subgroup's slices go, and
  /// the bytes of one slice.
  const void *gatherSlice = nullptr;
  void *gatherTarget = nullptr;
  int64_t gatherBytes = 0;
  /// How the scheduler resumes the fiber; empty while it runs, and for a
  /// slot whose fiber was abandoned or not created yet.
  bctx::fiber fiber;
  /// How the fiber switches back to the scheduler; empty while suspended.
  bctx::fiber caller;
  /// The mapping: a guard page, then kStackBytes of stack.
  char *mapping = nullptr;
  void *asanFakeStack = nullptr;
  void *tsanFiber = nullptr;

  char *stackBottom() const { return mapping + pageBytes(); }
};

FiberBlock::FiberBlock() = default;

FiberBlock::~FiberBlock() {
  for (std::unique_ptr<Slot> &slot : slots) {
    // A fiber waiting in its loop holds nothing but its stack: dropped, like
    // an abandoned one, rather than resumed to return (which would also
    // unbalance ThreadSanitizer's shadow call stacks).
    dropFiber(*slot);
#ifdef GPU_RUNNER_TSAN
    __tsan_destroy_fiber(slot->tsanFiber);
#endif
    munmap(slot->mapping, pageBytes() + kStackBytes);
  }
}

Status FiberBlock::prepare(int64_t count) {
  if (count < 1 || count > (int64_t(1) << 20))
    return Status::error("cannot run a block of " + std::to_string(count) +
                         " threads as fibers");
  size_t needed = static_cast<size_t>(count);
  while (slots.size() < needed) {
    size_t bytes = pageBytes() + kStackBytes;
    void *mapping =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED)
      return Status::error("cannot map the stack of GPU thread " +
                           std::to_string(slots.size()) + ": " +
                           std::strerror(errno));
    // The guard page below the stack turns an overflow into a fault.
    if (mprotect(mapping, pageBytes(), PROT_NONE) != 0) {
      int error = errno;
      munmap(mapping, bytes);
      return Status::error("cannot protect the guard page of a fiber stack: " +
                           std::string(std::strerror(error)));
    }
    auto slot = std::make_unique<Slot>();
    slot->block = this;
    slot->linear = static_cast<uint32_t>(slots.size());
    slot->mapping = static_cast<char *>(mapping);
#ifdef GPU_RUNNER_TSAN
    slot->tsanFiber = __tsan_create_fiber(0);
#endif
    slots.push_back(std::move(slot));
  }
  if (allThreads.size() < needed) {
    allThreads.resize(needed);
    std::iota(allThreads.begin(), allThreads.end(), 0u);
    woken.reserve(needed);
  }
  size_t subgroups = (needed + kSubgroupSize - 1) / kSubgroupSize;
  shuffleWaiters.assign(subgroups, 0);
  pendingSubgroups.clear();
  pendingSubgroups.reserve(subgroups);
  return Status();
}

Status FiberBlock::createFiber(Slot &slot) {
  bctx::stack_context stack;
  stack.size = kStackBytes;
  stack.sp = slot.stackBottom() + kStackBytes;
#ifdef GPU_RUNNER_TSAN
  // Creating a fiber runs the start of its entry on its stack.
  void *creator = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(slot.tsanFiber, 0);
#endif
  Slot *slotPointer = &slot;
  slot.fiber = bctx::fiber(
      std::allocator_arg, bctx::preallocated(stack.sp, stack.size, stack),
      SlotStack(), [slotPointer](bctx::fiber &&caller) -> bctx::fiber {
        slotPointer->caller = std::move(caller);
        fiberMain(*slotPointer);
      });
#ifdef GPU_RUNNER_TSAN
  __tsan_switch_to_fiber(creator, 0);
#endif
  return Status();
}

void FiberBlock::fiberMain(Slot &slot) {
  FiberBlock &block = *slot.block;
  block.enterFiber(slot);
  // Never returns: the fiber is dropped where it waits, between threads.
  while (true) {
    block.entry(&slot.context, block.args);
    slot.state = ThreadState::Finished;
    ++block.finishedCount;
    block.suspend(slot);
  }
}

void FiberBlock::resume(Slot &slot) {
  // The fault handler names the thread, and an overflow of its stack.
  RunningKernel &running = runningKernel();
  running.threadId = slot.context.threadId;
  running.guardBegin = slot.mapping;
  running.guardEnd = slot.mapping + pageBytes();
  running.stackBytes = kStackBytes;
#ifdef GPU_RUNNER_ASAN
  void *fakeStack = nullptr;
  __sanitizer_start_switch_fiber(&fakeStack, slot.stackBottom(), kStackBytes);
#endif
#ifdef GPU_RUNNER_TSAN
  __tsan_switch_to_fiber(slot.tsanFiber, 0);
#endif
  slot.fiber = std::move(slot.fiber).resume();
#ifdef GPU_RUNNER_ASAN
  __sanitizer_finish_switch_fiber(fakeStack, nullptr, nullptr);
#endif
  running.threadId = nullptr;
  running.guardBegin = running.guardEnd = nullptr;
}

void FiberBlock::suspend(Slot &slot) {
#ifdef GPU_RUNNER_ASAN
  __sanitizer_start_switch_fiber(&slot.asanFakeStack, schedulerStackBottom,
                                 schedulerStackSize);
#endif
#ifdef GPU_RUNNER_TSAN
  __tsan_switch_to_fiber(schedulerTsanFiber, 0);
#endif
  slot.caller = std::move(slot.caller).resume();
  enterFiber(slot);
}

void FiberBlock::enterFiber(Slot &slot) {
#ifdef GPU_RUNNER_ASAN
  // Learns the bounds of the stack of the OS thread that resumed the fiber:
  // blocks of one FiberBlock may run on different OS threads over time.
  __sanitizer_finish_switch_fiber(slot.asanFakeStack, &schedulerStackBottom,
                                  &schedulerStackSize);
#else
  (void)slot;
#endif
}

void FiberBlock::fail(Status status) {
  failed = true;
  failure = std::move(status);
}

void FiberBlock::stopFiber(Slot &slot) {
  suspend(slot);
  std::abort(); // a failed block's fibers are never resumed
}

Status FiberBlock::run(HostKernelEntry entryFunction, void *entryArgs,
                       const HostKernelContext &block,
                       const std::string &name) {
  int64_t count = block.blockDim[0];
  for (int i = 1; i < 3; ++i)
    if (__builtin_mul_overflow(count, block.blockDim[i], &count))
      count = -1;
  GPU_RUNNER_RETURN_IF_ERROR(prepare(count));

  entry = entryFunction;
  args = entryArgs;
  kernelName = &name;
  std::copy(block.blockId, block.blockId + 3, blockId);
  std::copy(block.blockDim, block.blockDim + 3, blockDim);
  threadCount = static_cast<uint32_t>(count);
  finishedCount = 0;
  barrierWaiters = 0;
  barrierLoc = nullptr;
  failed = false;
  failure = Status();
  failures.clear();
#ifdef GPU_RUNNER_TSAN
  schedulerTsanFiber = __tsan_get_current_fiber();
#endif

  uint64_t dimX = static_cast<uint64_t>(blockDim[0]);
  uint64_t dimXY = dimX * static_cast<uint64_t>(blockDim[1]);
  for (uint32_t i = 0; i < threadCount; ++i) {
    Slot &slot = *slots[i];
    slot.context = block;
    slot.context.threadId[0] = static_cast<int64_t>(i % dimX);
    slot.context.threadId[1] = static_cast<int64_t>((i % dimXY) / dimX);
    slot.context.threadId[2] = static_cast<int64_t>(i / dimXY);
    slot.context.runtime = &slot;
    if (!slot.fiber)
      GPU_RUNNER_RETURN_IF_ERROR(createFiber(slot));
  }

  // Run batches until every thread has returned. Threads wake each other
  // only between batches, once all of them are blocked or finished.
  const uint32_t *batch = allThreads.data();
  size_t batchSize = threadCount;
  while (true) {
    for (size_t k = 0; k < batchSize; ++k) {
      Slot &slot = *slots[batch[k]];
      slot.state = ThreadState::Running;
      resume(slot);
      if (failed)
        return abandon(failures.empty() ? std::move(failure) : Status());
    }
    if (finishedCount == threadCount) {
      retireFailedThreads();
      return Status();
    }
    if (barrierWaiters > 0 && barrierWaiters + finishedCount == threadCount) {
      // Every thread that has not returned reached the barrier: next phase.
      releaseBarrier(batch, batchSize);
      continue;
    }
    woken.clear();
    // After a failed assertion the block only finishes what can run: a GPU
    // aborts the kernel, so what waits for a failed thread is no error.
    Status status = completeShuffles();
    if (!status.ok())
      return abandon(failures.empty() ? std::move(status) : Status());
    if (woken.empty())
      return abandon(failures.empty() ? deadlock() : Status());
    batch = woken.data();
    batchSize = woken.size();
  }
}

void FiberBlock::releaseBarrier(const uint32_t *&batch, size_t &batchSize) {
  barrierWaiters = 0;
  barrierLoc = nullptr;
  if (finishedCount == 0) {
    batch = allThreads.data();
    batchSize = threadCount;
    return;
  }
  // Threads that returned are not resumed: their fibers would start the
  // kernel again. Only blocks with early returns pay for this scan.
  woken.clear();
  for (uint32_t i = 0; i < threadCount; ++i)
    if (slots[i]->state == ThreadState::AtBarrier)
      woken.push_back(i);
  batch = woken.data();
  batchSize = woken.size();
}

void FiberBlock::dropFiber(Slot &slot) {
  // Without boost's destructor, which would unwind the fiber by throwing
  // through its frames (the kernel's, for an abandoned one). Ending an
  // object's lifetime by reusing its storage is allowed when nothing depends
  // on its destructor; the stack stays the slot's.
  new (&slot.fiber) bctx::fiber();
}

void FiberBlock::resetSlot(Slot &slot) {
  dropFiber(slot);
  slot.state = ThreadState::Finished;
  slot.asanFakeStack = nullptr;
#ifdef GPU_RUNNER_ASAN
  // Frames that never returned leave their redzones poisoned.
  __asan_unpoison_memory_region(slot.stackBottom(), kStackBytes);
#endif
#ifdef GPU_RUNNER_TSAN
  __tsan_destroy_fiber(slot.tsanFiber);
  slot.tsanFiber = __tsan_create_fiber(0);
#endif
}

void FiberBlock::retireFailedThreads() {
  if (failures.empty())
    return;
  for (uint32_t i = 0; i < threadCount; ++i)
    if (slots[i]->state == ThreadState::Failed)
      resetSlot(*slots[i]);
}

Status FiberBlock::abandon(Status status) {
  for (uint32_t i = 0; i < threadCount; ++i) {
    Slot &slot = *slots[i];
    if (slot.state == ThreadState::Finished)
      continue; // waits in its loop: reusable
    // Suspended inside the kernel, failed, or not started.
    resetSlot(slot);
  }
  return status;
}

//===----------------------------------------------------------------------===//
// Barriers and shuffles, called on the GPU thread's fiber.
//===----------------------------------------------------------------------===//

void FiberBlock::barrier(HostKernelContext *context, const char *loc) {
  Slot &slot = *static_cast<Slot *>(context->runtime);
  FiberBlock &block = *slot.block;
  if (block.barrierWaiters == 0) {
    block.barrierLoc = loc;
    block.barrierFirst = slot.linear;
  } else if (!sameLoc(loc, block.barrierLoc)) {
    // The message is made in a statement of its own: the fiber never
    // resumes, so temporaries of the suspending statement would leak.
    block.fail(errorAt(block.barrierLoc, "gpu.barrier",
                       "deadlock in " + block.where() + ": thread " +
                           block.threadName(block.barrierFirst) +
                           " waits at this barrier, but thread " +
                           block.threadName(slot.linear) +
                           " waits at another one, " + describeOp(loc) +
                           "; all the threads of a block must "
                           "wait at the same barrier"));
    block.stopFiber(slot);
  }
  ++block.barrierWaiters;
  slot.state = ThreadState::AtBarrier;
  slot.loc = loc;
  block.suspend(slot);
}

void FiberBlock::failAssertion(HostKernelContext *context,
                               const AssertionFailure &failure) {
  Slot &slot = *static_cast<Slot *>(context->runtime);
  FiberBlock &block = *slot.block;
  block.failures.push_back(failure);
  std::copy(slot.context.threadId, slot.context.threadId + 3,
            block.failures.back().threadId);
  // Counted as returned: barriers after this wait for the others only.
  slot.state = ThreadState::Failed;
  ++block.finishedCount;
  block.stopFiber(slot);
}

uint64_t FiberBlock::shuffle(HostKernelContext *context, uint64_t value,
                             int32_t sourceLane, int32_t width,
                             const char *loc) {
  Slot &slot = *static_cast<Slot *>(context->runtime);
  FiberBlock &block = *slot.block;
  if (width < 1 || width > kHostSubgroupSize) {
    block.fail(errorAt(loc, "gpu.shuffle",
                       "thread " + block.threadName(slot.linear) + " of " +
                           block.where() + " shuffles with width " +
                           std::to_string(width) +
                           ", outside [1, 32]: the width must be "
                           "at least 1 and at most the subgroup "
                           "size, 32"));
    block.stopFiber(slot);
  }
  if (sourceLane < 0 || sourceLane >= width) {
    block.fail(errorAt(loc, "gpu.shuffle",
                       "thread " + block.threadName(slot.linear) + " of " +
                           block.where() + " reads lane " +
                           std::to_string(sourceLane) + ", outside [0, " +
                           std::to_string(width) +
                           "), the shuffle's width: a bug of the "
                           "host kernel lowering, which passes "
                           "source lanes below the width only"));
    block.stopFiber(slot);
  }
  return block.waitForLanes(slot, ThreadState::AtShuffle, value, sourceLane,
                            width, loc);
}

uint64_t FiberBlock::broadcast(HostKernelContext *context, uint64_t value,
                               int32_t sourceLane, const char *loc) {
  Slot &slot = *static_cast<Slot *>(context->runtime);
  return slot.block->waitForLanes(slot, ThreadState::AtBroadcast, value,
                                  sourceLane, /*width=*/0, loc);
}

void FiberBlock::gather(HostKernelContext *context, const void *slice,
                        void *gathered, int64_t bytes, const char *loc) {
  Slot &slot = *static_cast<Slot *>(context->runtime);
  slot.gatherSlice = slice;
  slot.gatherTarget = gathered;
  slot.gatherBytes = bytes;
  slot.block->waitForLanes(slot, ThreadState::AtGather, 0, 0, /*width=*/0, loc);
}

uint64_t FiberBlock::waitForLanes(Slot &slot, ThreadState state, uint64_t value,
                                  int32_t sourceLane, int32_t width,
                                  const char *loc) {
  slot.value = value;
  slot.sourceLane = sourceLane;
  slot.width = width;
  slot.loc = loc;
  slot.state = state;
  uint32_t subgroup = slot.linear / kSubgroupSize;
  if (shuffleWaiters[subgroup]++ == 0)
    pendingSubgroups.push_back(subgroup);
  suspend(slot);
  return slot.result;
}

//===----------------------------------------------------------------------===//
// Completing shuffles, and deadlocks.
//===----------------------------------------------------------------------===//

Status FiberBlock::completeShuffles() {
  size_t kept = 0;
  for (uint32_t subgroup : pendingSubgroups) {
    bool completed = false;
    GPU_RUNNER_RETURN_IF_ERROR(completeShuffle(subgroup, completed));
    if (shuffleWaiters[subgroup] > 0)
      pendingSubgroups[kept++] = subgroup;
  }
  pendingSubgroups.resize(kept);
  return Status();
}

Status FiberBlock::completeShuffle(uint32_t subgroup, bool &completed) {
  completed = false;
  uint32_t base = subgroup * kSubgroupSize;
  uint32_t lanes = std::min(kSubgroupSize, threadCount - base);
  // Every shuffle needs lane 0, so lane 0's is the only one that can
  // complete; failing that, a broadcast. So does every gather.
  const Slot &first = *slots[base];
  if (first.state == ThreadState::AtGather) {
    GPU_RUNNER_RETURN_IF_ERROR(completeGather(subgroup, completed));
    if (!completed)
      completeBroadcast(subgroup, completed);
    return Status();
  }
  if (first.state != ThreadState::AtShuffle) {
    completeBroadcast(subgroup, completed);
    return Status();
  }
  const char *loc = first.loc;
  int32_t width = first.width;
  uint32_t needed = std::min(static_cast<uint32_t>(width), lanes);
  auto widthMismatch = [&](const Slot &other) {
    return errorAt(
        loc, "gpu.shuffle",
        "the lanes of subgroup " + std::to_string(subgroup) + " of " + where() +
            " pass different widths to this shuffle: " + laneRange(base, base) +
            " passes " + std::to_string(width) + ", " +
            laneRange(other.linear, other.linear) + " passes " +
            std::to_string(other.width) +
            "; all the lanes must pass the same width");
  };
  for (uint32_t lane = 1; lane < needed; ++lane) {
    const Slot &slot = *slots[base + lane];
    if (slot.state != ThreadState::AtShuffle || !sameLoc(slot.loc, loc)) {
      // Not all there yet: a deadlock, or another shuffle or a broadcast.
      completeBroadcast(subgroup, completed);
      return Status();
    }
    if (slot.width != width)
      return widthMismatch(slot);
  }
  // Lanes at or above the width that wait at the same shuffle take part too.
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    Slot &slot = *slots[base + lane];
    if (slot.state != ThreadState::AtShuffle || !sameLoc(slot.loc, loc))
      continue;
    if (slot.width != width)
      return widthMismatch(slot);
    uint32_t source = static_cast<uint32_t>(slot.sourceLane);
    // A lane missing from a partial last subgroup has no value: like an
    // inactive lane on a GPU, reading it gives the reader's own.
    slot.result = source < lanes ? slots[base + source]->value : slot.value;
    slot.state = ThreadState::Running;
    woken.push_back(base + lane);
    --shuffleWaiters[subgroup];
  }
  completed = true;
  return Status();
}

Status FiberBlock::completeGather(uint32_t subgroup, bool &completed) {
  completed = false;
  uint32_t base = subgroup * kSubgroupSize;
  uint32_t lanes = std::min(kSubgroupSize, threadCount - base);
  const Slot &first = *slots[base];
  // The lowering stops a thread of a partial subgroup before any mma op.
  if (lanes < kSubgroupSize)
    return errorAt(first.loc, "gpu.subgroup_mma_compute",
                   "subgroup " + std::to_string(subgroup) + " of " + where() +
                       " has " + std::to_string(lanes) +
                       " lanes: a bug of the host kernel lowering, which "
                       "checks for whole subgroups first");
  for (uint32_t lane = 1; lane < lanes; ++lane) {
    const Slot &slot = *slots[base + lane];
    if (slot.state != ThreadState::AtGather || !sameLoc(slot.loc, first.loc))
      return Status(); // not all there yet
    if (slot.gatherBytes != first.gatherBytes)
      return errorAt(first.loc, "gpu.subgroup_mma_compute",
                     "the lanes of subgroup " + std::to_string(subgroup) +
                         " of " + where() +
                         " gather slices of different sizes: a bug of the "
                         "host kernel lowering");
  }
  // Every lane waits, so every slice (on its lane's stack) is still there.
  size_t bytes = static_cast<size_t>(first.gatherBytes);
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    Slot &slot = *slots[base + lane];
    char *target = static_cast<char *>(slot.gatherTarget);
    for (uint32_t source = 0; source < lanes; ++source)
      std::memcpy(target + source * bytes, slots[base + source]->gatherSlice,
                  bytes);
    slot.state = ThreadState::Running;
    woken.push_back(base + lane);
    --shuffleWaiters[subgroup];
  }
  completed = true;
  return Status();
}

void FiberBlock::completeBroadcast(uint32_t subgroup, bool &completed) {
  uint32_t base = subgroup * kSubgroupSize;
  uint32_t lanes = std::min(kSubgroupSize, threadCount - base);
  // The active lanes of a GPU are those that execute the op together: here,
  // once no thread can run, the lanes that wait at the broadcast of the
  // lowest lane that waits at one. The others returned, or wait at a barrier
  // or another op, as inactive lanes would.
  uint32_t leader = lanes;
  for (uint32_t lane = 0; lane < lanes && leader == lanes; ++lane)
    if (slots[base + lane]->state == ThreadState::AtBroadcast)
      leader = lane;
  if (leader == lanes)
    return;
  const char *loc = slots[base + leader]->loc;
  auto isActive = [&](uint32_t lane) {
    const Slot &slot = *slots[base + lane];
    return slot.state == ThreadState::AtBroadcast && sameLoc(slot.loc, loc);
  };
  for (uint32_t lane = leader; lane < lanes; ++lane) {
    if (!isActive(lane))
      continue;
    Slot &slot = *slots[base + lane];
    uint32_t source =
        slot.sourceLane < 0 ? leader : static_cast<uint32_t>(slot.sourceLane);
    // Reading an inactive or missing lane is poison: the reader's own value.
    slot.result = source < lanes && isActive(source)
                      ? slots[base + source]->value
                      : slot.value;
  }
  for (uint32_t lane = leader; lane < lanes; ++lane) {
    if (!isActive(lane))
      continue;
    slots[base + lane]->state = ThreadState::Running;
    woken.push_back(base + lane);
    --shuffleWaiters[subgroup];
  }
  completed = true;
}

Status FiberBlock::deadlock() const {
  if (barrierWaiters > 0) {
    // Threads that returned do not hold a barrier up (a GPU waits for the
    // threads that have not exited): one that waits at a shuffle does.
    std::string returned =
        finishedCount == 0 ? ""
                           : ", " + std::to_string(finishedCount) + " returned";
    for (uint32_t i = 0; i < threadCount; ++i) {
      const Slot &slot = *slots[i];
      if (slot.state != ThreadState::AtShuffle &&
          slot.state != ThreadState::AtGather)
        continue;
      return errorAt(
          barrierLoc, "gpu.barrier",
          "deadlock in " + where() + ": " + std::to_string(barrierWaiters) +
              " of " + std::to_string(threadCount) +
              " threads wait at this barrier" + returned + ", but thread " +
              threadName(i) + " waits at " + describeOp(slot.loc));
    }
  }
  // Only shuffles wait: report the lowest subgroup that does.
  uint32_t subgroup =
      *std::min_element(pendingSubgroups.begin(), pendingSubgroups.end());
  uint32_t base = subgroup * kSubgroupSize;
  uint32_t lanes = std::min(kSubgroupSize, threadCount - base);
  // The shuffle the subgroup is stuck at: lane 0's, or if lane 0 returned,
  // that of the first lane that waits.
  const Slot *target = nullptr;
  for (uint32_t lane = 0; lane < lanes && !target; ++lane)
    if (slots[base + lane]->state == ThreadState::AtShuffle ||
        slots[base + lane]->state == ThreadState::AtGather)
      target = slots[base + lane].get();
  const char *loc = target->loc;
  // A gather (gpu.subgroup_mma_compute) needs every lane of the subgroup.
  bool gathers = target->state == ThreadState::AtGather;
  const char *op = gathers ? "gpu.subgroup_mma_compute" : "gpu.shuffle";
  uint32_t needed =
      gathers ? lanes : std::min(static_cast<uint32_t>(target->width), lanes);
  auto atTarget = [&](const Slot &slot) {
    return slot.state == target->state && sameLoc(slot.loc, loc);
  };
  for (uint32_t lane = 0; lane < lanes && !gathers; ++lane) {
    const Slot &slot = *slots[base + lane];
    if (atTarget(slot) && slot.width != target->width)
      return errorAt(loc, "gpu.shuffle",
                     "the lanes of subgroup " + std::to_string(subgroup) +
                         " of " + where() +
                         " pass different widths to this shuffle: " +
                         laneRange(target->linear, target->linear) +
                         " passes " + std::to_string(target->width) + ", " +
                         laneRange(slot.linear, slot.linear) + " passes " +
                         std::to_string(slot.width) +
                         "; all the lanes must pass the same width");
  }
  std::string needs =
      (gathers ? std::string("this matrix multiply-accumulate")
               : "this shuffle of width " + std::to_string(target->width)) +
      " needs " +
      (needed == 1 ? "lane 0" : "lanes 0-" + std::to_string(needed - 1)) +
      " of subgroup " + std::to_string(subgroup);
  for (uint32_t lane = 0; lane < needed; ++lane) {
    const Slot &slot = *slots[base + lane];
    if (atTarget(slot))
      continue;
    // The run of lanes from here that are stuck the same way.
    uint32_t last = lane;
    while (last + 1 < needed) {
      const Slot &next = *slots[base + last + 1];
      bool same =
          next.state == slot.state &&
          (slot.state == ThreadState::Finished || sameLoc(next.loc, slot.loc));
      if (!same)
        break;
      ++last;
    }
    bool several = last > lane;
    std::string what;
    if (slot.state == ThreadState::Finished)
      what = " returned without reaching it";
    else
      what = std::string(several ? " wait at " : " waits at ") +
             describeOp(slot.loc);
    return errorAt(loc, op,
                   "deadlock in " + where() + ": " + needs + ", but " +
                       laneRange(base + lane, base + last) + what);
  }
  return errorAt(loc, op,
                 "deadlock in " + where() + ": " + needs +
                     ", and they wait at it");
}

std::string formatAssertionFailures(std::vector<AssertionFailure> failures,
                                    const int64_t *blockId,
                                    const int64_t *blockDim) {
  auto linear = [&](const AssertionFailure &failure) {
    const int64_t *id = failure.threadId;
    return id[0] + blockDim[0] * (id[1] + blockDim[1] * id[2]);
  };
  std::stable_sort(failures.begin(), failures.end(),
                   [&](const AssertionFailure &a, const AssertionFailure &b) {
                     return linear(a) < linear(b);
                   });
  auto ids = [](const int64_t *id) {
    return "[" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," +
           std::to_string(id[2]) + "]";
  };
  auto text = [](const char *string) {
    return std::string(string ? string : "(unknown)");
  };
  std::string lines;
  for (const AssertionFailure &failure : failures)
    lines += text(failure.file) + ":" + std::to_string(failure.line) + ": " +
             text(failure.function) + ": block: " + ids(blockId) +
             ", thread: " + ids(failure.threadId) + " Assertion `" +
             text(failure.message) + "` failed.\n";
  return lines;
}

std::string FiberBlock::where() const {
  return "kernel '" + *kernelName + "', block (" + std::to_string(blockId[0]) +
         ", " + std::to_string(blockId[1]) + ", " + std::to_string(blockId[2]) +
         ")";
}

std::string FiberBlock::threadName(uint32_t linear) const {
  const HostKernelContext &context = slots[linear]->context;
  return "(" + std::to_string(context.threadId[0]) + ", " +
         std::to_string(context.threadId[1]) + ", " +
         std::to_string(context.threadId[2]) + ")";
}

std::string FiberBlock::laneRange(uint32_t firstLinear,
                                  uint32_t lastLinear) const {
  uint32_t firstLane = firstLinear % kSubgroupSize;
  uint32_t lastLane = lastLinear % kSubgroupSize;
  if (firstLinear == lastLinear)
    return "lane " + std::to_string(firstLane) + " (thread " +
           threadName(firstLinear) + ")";
  return "lanes " + std::to_string(firstLane) + "-" + std::to_string(lastLane) +
         " (threads " + threadName(firstLinear) + " to " +
         threadName(lastLinear) + ")";
}

} // namespace gpu_runner
