//===- FiberSlot.h - One GPU thread's fiber, as a block sees it -----------===//
//
// What Fibers.cpp (the fibers: stacks, switches, the scheduler's loop) and
// FiberRendezvous.cpp (where threads meet: barriers, shuffles, broadcasts,
// gathers, and the deadlock report when they cannot) share of a FiberBlock
// (Fibers.h): the state of each thread slot, and a few helpers. Private to
// those two files.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_FIBERSLOT_H
#define GPU_RUNNER_WRAPPERS_HOST_FIBERSLOT_H

#include "wrappers/common/CheckReports.h"
#include "wrappers/host/Fibers.h"

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include <unistd.h>

namespace gpu_runner {
namespace fibers {

constexpr uint32_t kSubgroupSize = static_cast<uint32_t>(kHostSubgroupSize);

inline size_t pageBytes() {
  static const size_t bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

/// Barriers and shuffles are told apart by their location strings; the
/// lowering passes one constant per op, so pointers almost always decide.
inline bool sameLoc(const char *a, const char *b) {
  return a == b || (a && b && std::strcmp(a, b) == 0);
}

/// A Status at the op `loc`, or at `op` alone when the loc is missing.
inline Status errorAt(const char *loc, const char *op, std::string message) {
  return Status::errorAt(loc && *loc ? loc : op, std::move(message));
}

/// The same for a deadlock at a barrier, shuffle or matrix op: under
/// --check=synccheck, synccheck's finding (CheckReports.h).
inline Status syncErrorAt(const char *loc, const char *op,
                          std::string message) {
  std::string where = loc && *loc ? loc : op;
  if (isCheckEnabled(Check::Synccheck))
    where.insert(0, "synccheck: ");
  return Status::errorAt(std::move(where), std::move(message));
}

} // namespace fibers

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
  boost::context::fiber fiber;
  /// How the fiber switches back to the scheduler; empty while suspended.
  boost::context::fiber caller;
  /// The mapping: a guard page, then kStackBytes of stack.
  char *mapping = nullptr;
  void *asanFakeStack = nullptr;
  void *tsanFiber = nullptr;

  char *stackBottom() const { return mapping + fibers::pageBytes(); }
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_FIBERSLOT_H
