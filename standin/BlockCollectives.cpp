//===- BlockCollectives.cpp - What a block's threads wait for -------------===//
//
// See BlockThreads.h: the rendezvous of a block's threads, each as the PTX
// ISA states it. Barriers complete when all non-exited threads (or the
// count, in whole warps) have arrived; warp-collective instructions when
// the non-exited lanes of their member mask are at the same kind of
// instruction with the same mask, and then each lane's result is computed
// here (shfl.sync, vote.sync, match.sync, redux.sync; wmma in
// KernelWmma.cpp); activemask when the block can go no further. What is
// undefined on a GPU (a lane outside its member mask, a shuffle that reads
// an exited lane, a deadlock) fails the grid with a line saying which
// threads did what.
//
//===----------------------------------------------------------------------===//

#include "standin/BlockThreads.h"

#include "standin/KernelRuntime.h"

#include <algorithm>
#include <cstdio>

namespace gpu_runner {
namespace standin {
namespace {

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
  if (id > 15 || count % warpSize != 0 || count > threadCount + warpSize ||
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
  ++bar.warpArrivals[slot.linear / warpSize];
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
    if (uint64_t(warps) * warpSize < bar.count)
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
    uint32_t &seen = warpSites[i / warpSize];
    if (seen == UINT32_MAX) {
      seen = slot.site;
    } else if (seen != slot.site) {
      misuse("the threads of warp " + std::to_string(i / warpSize) + " of " +
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
// Warp-collective instructions: the PTX ISA's, of warps of kWarpSize lanes.
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
  uint32_t qualifiers = keyQualifiers(key);
  switch (keyKind(key)) {
  case WarpOpKind::Shfl:
    return completeShfl(warp, qualifiers, group);
  case WarpOpKind::Vote:
    return completeVote(warp, qualifiers, group);
  case WarpOpKind::Match:
    return completeMatch(warp, qualifiers, group);
  case WarpOpKind::Redux:
    return completeRedux(warp, qualifiers, group);
  case WarpOpKind::WarpSync:
    return;
  case WarpOpKind::Wmma:
    return completeWmma(warp, group);
  }
}

void BlockThreads::completeShfl(uint32_t warp, uint32_t qualifiers,
                                uint32_t group) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * kWarpSize + lane];
  };
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
}

void BlockThreads::completeVote(uint32_t warp, uint32_t qualifiers,
                                uint32_t group) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * kWarpSize + lane];
  };
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
}

void BlockThreads::completeMatch(uint32_t warp, uint32_t qualifiers,
                                 uint32_t group) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * kWarpSize + lane];
  };
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
}

void BlockThreads::completeRedux(uint32_t warp, uint32_t qualifiers,
                                 uint32_t group) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * kWarpSize + lane];
  };
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
      result = static_cast<uint32_t>(
          std::min(static_cast<int32_t>(result), static_cast<int32_t>(value)));
      break;
    case kReduxMax:
      result = static_cast<uint32_t>(
          std::max(static_cast<int32_t>(result), static_cast<int32_t>(value)));
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
}

void BlockThreads::completeWmma(uint32_t warp, uint32_t group) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * kWarpSize + lane];
  };
  // The fragments are gathered in lane order; a lane missing from the
  // warp has none to give.
  if (group != 0xffffffffu) {
    misuse("wmma.mma.sync in warp " + std::to_string(warp) + " of " + where() +
           " at " + describeSite(lanes(0).site) + " is executed by lanes " +
           hex(group) +
           " only: the PTX ISA (wmma) requires all threads of the warp");
    return;
  }
  ThreadSlot *all[kWarpSize];
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    all[lane] = &lanes(lane);
  runWmma(all);
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
  //
  // So are the lanes that execute an AMDGPU cross-lane instruction
  // together, those the wave's EXEC mask holds, with one more rule. A wave
  // runs the two sides of a branch one after the other and then goes on
  // with all its lanes together, so lanes waiting past the join for others
  // still inside the branch must not complete without them. Of a wave's
  // sites, only the one first in the code (the lowest site number: the
  // rewrite numbers a function's calls in block order, the order of the
  // structured control flow the gpu dialect's lowerings make) completes;
  // its lanes go on, and the others complete with them later.
  bool completed = false;
  for (uint32_t warp = 0; warp < warpCount; ++warp) {
    uint32_t firstWaveSite = UINT32_MAX;
    for (uint32_t lane = 0; lane < warpSize; ++lane) {
      uint32_t linear = warp * warpSize + lane;
      if (linear < threadCount && slots[linear]->state == ThreadState::AtWaveOp)
        firstWaveSite = std::min(firstWaveSite, slots[linear]->site);
    }
    for (uint32_t lane = 0; lane < warpSize; ++lane) {
      uint32_t linear = warp * warpSize + lane;
      if (linear >= threadCount)
        break;
      ThreadSlot &leader = *slots[linear];
      if (leader.state != ThreadState::AtActiveMask &&
          (leader.state != ThreadState::AtWaveOp ||
           leader.site != firstWaveSite))
        continue;
      uint64_t mask = 0;
      for (uint32_t other = lane; other < warpSize; ++other) {
        uint32_t o = warp * warpSize + other;
        if (o < threadCount && slots[o]->state == leader.state &&
            slots[o]->site == leader.site)
          mask |= uint64_t(1) << other;
      }
      completed = true;
      if (leader.state == ThreadState::AtWaveOp) {
        completeWaveOp(warp, mask, UINT32_MAX);
        if (grid->failed.load(std::memory_order_relaxed))
          return true;
        continue;
      }
      for (uint32_t other = lane; other < warpSize; ++other) {
        if (!(mask >> other & 1))
          continue;
        ThreadSlot &slot = *slots[warp * warpSize + other];
        slot.result = mask;
        wake(warp * warpSize + other, UINT32_MAX);
      }
    }
  }
  return completed;
}

//===----------------------------------------------------------------------===//
// AMDGPU's cross-lane instructions, in waves of warpSize lanes.
//===----------------------------------------------------------------------===//

uint64_t BlockThreads::waveOp(ThreadSlot &slot, uint32_t op, uint32_t site) {
  if (loopMode) {
    misuse("thread " + threadName(loopNext - 1) + " of " + where() +
           " reached a cross-lane instruction at " + describeSite(site) +
           ", which the stand-in did not expect of this kernel");
    abandonThread(slot);
  }
  // The key is the WaveOp: wave ops have no kinds or qualifiers to match.
  slot.key = op;
  slot.site = site;
  slot.state = ThreadState::AtWaveOp;
  checkWaveOp(slot.linear / warpSize, slot.linear);
  if (slot.state != ThreadState::Runnable)
    suspend(slot);
  if (grid->failed.load(std::memory_order_relaxed))
    abandonThread(slot);
  return slot.result;
}

void BlockThreads::checkWaveOp(uint32_t warp, uint32_t arriving) {
  // Every non-exited lane of the wave at the same instruction: no lane can
  // join them later, so they complete now, as they would once the block
  // can go no further (completeActiveMasks).
  uint64_t group = 0;
  uint32_t site = UINT32_MAX;
  for (uint32_t lane = 0; lane < warpSize; ++lane) {
    uint32_t linear = warp * warpSize + lane;
    if (!isLive(linear))
      continue;
    const ThreadSlot &slot = *slots[linear];
    if (slot.state != ThreadState::AtWaveOp)
      return;
    if (site == UINT32_MAX)
      site = slot.site;
    else if (slot.site != site)
      return;
    group |= uint64_t(1) << lane;
  }
  if (group != 0)
    completeWaveOp(warp, group, arriving);
}

void BlockThreads::completeWaveOp(uint32_t warp, uint64_t group,
                                  uint32_t arriving) {
  auto lanes = [&](uint32_t lane) -> ThreadSlot & {
    return *slots[warp * warpSize + lane];
  };
  uint32_t first = 0;
  while (!(group >> first & 1))
    ++first;
  const ThreadSlot &leader = lanes(first);
  uint32_t op = leader.key;
  // A source lane that does not execute the instruction: on a GPU it is
  // not active, and what the lane reads is undefined for the gpu dialect's
  // ops that come to these (gpu.shuffle, gpu.subgroup_broadcast).
  auto readsInactive = [&](const ThreadSlot &slot, uint32_t source,
                           const char *instruction) {
    uint32_t linear = warp * warpSize + source;
    std::string why = linear >= threadCount ? "which the block does not have"
                      : !isLive(linear)     ? "which has exited"
                                            : "which does not take part";
    misuse("lane " + std::to_string(slot.linear % warpSize) + " (thread " +
           threadName(slot.linear) + ") of " + where() + " reads lane " +
           std::to_string(source) + " with " + instruction + " at " +
           describeSite(slot.site) + ", " + why +
           ": the value it reads is undefined (the ISA's " + instruction +
           " reads an inactive lane as 0, or as what its register last "
           "held)");
  };
  uint64_t ballot = 0;
  for (uint32_t lane = 0; lane < warpSize; ++lane)
    if ((group >> lane & 1) && lanes(lane).a != 0)
      ballot |= uint64_t(1) << lane;
  for (uint32_t lane = 0; lane < warpSize; ++lane) {
    if (!(group >> lane & 1))
      continue;
    ThreadSlot &slot = lanes(lane);
    switch (op) {
    case kWaveBpermute: {
      // DS_BPERMUTE_B32: "the address is the lane's byte address": bits
      // 7:2 in a wave of 64, 6:2 in one of 32 (the rest wrap around).
      uint32_t source = (slot.b >> 2) & (warpSize - 1);
      if (!(group >> source & 1))
        return readsInactive(slot, source, "ds_bpermute");
      slot.result = static_cast<uint32_t>(lanes(source).a);
      break;
    }
    case kWaveSwizzle: {
      // DS_SWIZZLE_B32 (the ISA's pseudo-code): with offset[15] set, lane
      // i reads lane (i & ~3) + offset[2 * (i & 3) + 1 : 2 * (i & 3)];
      // clear, lane ((i & and) | or) ^ xor of its group of 32, the masks
      // offset[4:0], [9:5] and [14:10]. A lane not active gives 0.
      uint32_t pattern = slot.b;
      uint32_t source = 0;
      if (pattern & 0x8000) {
        source = (lane & ~3u) | ((pattern >> (2 * (lane & 3))) & 3);
      } else {
        uint32_t andMask = pattern & 31, orMask = (pattern >> 5) & 31;
        uint32_t xorMask = (pattern >> 10) & 31;
        source = (((lane & andMask) | orMask) ^ xorMask) | (lane & ~31u);
      }
      slot.result =
          group >> source & 1 ? static_cast<uint32_t>(lanes(source).a) : 0;
      break;
    }
    case kWaveReadlane: {
      // V_READLANE_B32: the lane select's bits 5:0 (wave 64) or 4:0.
      uint32_t source = slot.b & (warpSize - 1);
      if (!(group >> source & 1))
        return readsInactive(slot, source, "v_readlane");
      slot.result = lanes(source).a;
      break;
    }
    case kWaveFirstLane:
      // V_READFIRSTLANE_B32: the value of the lowest active lane.
      slot.result = leader.a;
      break;
    case kWaveFence:
      slot.result = 0;
      break;
    default:
      // llvm.amdgcn.ballot: a bit for each active lane whose condition
      // holds; inactive lanes give 0.
      slot.result = ballot;
      break;
    }
  }
  for (uint32_t lane = 0; lane < warpSize; ++lane)
    if (group >> lane & 1)
      wake(warp * warpSize + lane, arriving);
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

} // namespace standin
} // namespace gpu_runner
