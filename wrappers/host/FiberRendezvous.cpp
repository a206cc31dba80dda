//===- FiberRendezvous.cpp - Where the fibers of a block meet -------------===//
//
// The half of FiberBlock (Fibers.h) that decides when waiting threads go on.
// On a GPU thread's fiber: a barrier, shuffle, broadcast or gather records
// what the thread waits for and switches back to the scheduler. On the
// scheduler, once no fiber can run: the barrier every thread that has not
// returned reached is released, the shuffles, broadcasts and gathers whose
// lanes all arrived are completed, and anything else is a deadlock, reported
// with the threads concerned. Fibers.cpp is the other half: the fibers, their
// stacks and switches, and the scheduler's loop.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/Fibers.h"

#include "wrappers/host/FiberSlot.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace gpu_runner {

using namespace fibers;

//===----------------------------------------------------------------------===//
// Releasing a barrier, on the scheduler.
//===----------------------------------------------------------------------===//

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
    block.fail(syncErrorAt(block.barrierLoc, "gpu.barrier",
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
      return syncErrorAt(
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
    return syncErrorAt(loc, op,
                       "deadlock in " + where() + ": " + needs + ", but " +
                           laneRange(base + lane, base + last) + what);
  }
  return syncErrorAt(loc, op,
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
