//===- Fibers.cpp - The GPU threads of one block, as fibers ---------------===//
//
// See Fibers.h. Each thread slot owns a Boost.Context fiber that runs GPU
// threads in a loop: call the kernel's entry, mark the thread finished,
// switch back to the scheduler, and on the next resume start the next
// block's thread in that slot. A barrier or shuffle records what the thread
// waits for and switches back; the scheduler resumes threads in batches and
// decides what happens next only once every thread is blocked or finished,
// so a barrier costs one switch into and one out of each fiber. What the
// threads wait at, and how the scheduler decides, is FiberRendezvous.cpp.
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

#include "wrappers/common/FaultHandler.h"
#include "wrappers/common/Sanitizers.h"
#include "wrappers/host/FiberSlot.h"

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

using namespace fibers;

namespace {

namespace bctx = boost::context;

/// Boost's StackAllocator for the stacks a slot owns: boost gives a stack
/// back when its fiber ends, and the slot keeps it for the next fiber.
struct SlotStack {
  bctx::stack_context allocate() { std::abort(); } // preallocated: unused
  void deallocate(bctx::stack_context &) noexcept {}
};

} // namespace

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

} // namespace gpu_runner
