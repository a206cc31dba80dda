//===- WorkgroupChecks.h - racecheck and initcheck of workgroup memory ----===//
//
// Under --check=racecheck or initcheck, each OS thread that runs blocks
// keeps a shadow of its block's workgroup memory: for every byte, the last
// thread that wrote it and the threads that read it in the current barrier
// interval, and whether any thread of the block wrote it. The checked
// accesses of a kernel (mgpuHostCheckAccessAt) go through it:
//
// - racecheck: two threads that touch the same byte in one barrier
//   interval, one of them writing, is a hazard (write-after-write,
//   read-after-write, write-after-read), as compute-sanitizer's racecheck
//   reports them for shared memory. Atomics are not races.
// - initcheck: a read of a byte that no thread of the block wrote since the
//   block started (a GPU's workgroup memory starts with whatever was there).
//
// A thread's barrier interval is the count of barriers it passed
// (mgpuHostCheckBarrierAt, which the lowering calls after each gpu.barrier):
// every thread of a block passes the same barriers, so the k-th intervals of
// two threads are the same stretch of time on a GPU, whether the host runs
// the block on fibers or as loops between the barriers.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_WORKGROUPCHECKS_H
#define GPU_RUNNER_WRAPPERS_HOST_WORKGROUPCHECKS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

class WorkgroupShadow {
public:
  /// What an access found; `detail` is empty when nothing.
  struct Finding {
    bool race = false; // else an uninitialized read
    /// "write-after-read hazard", "uninitialized load".
    std::string what;
    std::string detail;
    /// The other access's op, for a race: with the access's own op, what
    /// makes the finding distinct.
    const char *otherLoc = nullptr;
  };

  /// Starts a block whose workgroup memory is [base, base + bytes) and
  /// whose threads are `blockDim`: every byte unwritten, every interval 0.
  /// `races` and `init` say which checks to make.
  void beginBlock(const char *base, size_t bytes, const int64_t *blockDim,
                  bool races, bool init);

  /// The block writes workgroup memory in ways the checks cannot follow:
  /// no initcheck for the rest of it.
  void stopInitcheck() { checkInit = false; }

  /// The GPU thread `thread` passed a barrier.
  void passBarrier(const int64_t *thread);

  /// An access of `bytes` bytes at `address` by `thread`, at the op `loc`;
  /// nothing for an address outside the block's workgroup memory.
  Finding access(const char *address, int64_t bytes, bool isStore,
                 bool isAtomic, const int64_t *thread, const char *loc);

  /// The calling OS thread's shadow while it runs a block under racecheck
  /// or initcheck; null otherwise.
  static WorkgroupShadow *current();
  /// Makes `shadow` (or null) the calling OS thread's.
  static void setCurrent(WorkgroupShadow *shadow);

private:
  struct ByteState {
    uint64_t writeStamp = 0;
    uint64_t readStamp = 0;
    const char *writeLoc = nullptr;
    const char *readLoc = nullptr;
    uint32_t writer = 0;
    uint32_t reader = 0;
    /// The block (`serial`) in which some thread wrote the byte.
    uint32_t writtenIn = 0;
    bool manyReaders = false;
  };

  uint32_t linearId(const int64_t *thread) const;
  std::string describeThread(uint32_t linear) const;

  bool checkRaces = false;
  bool checkInit = false;
  const char *base = nullptr;
  size_t bytes = 0;
  int64_t blockDim[3] = {1, 1, 1};
  /// Counts the blocks this shadow ran: stamps of an earlier block are
  /// stale, so nothing is cleared between blocks.
  uint32_t serial = 0;
  std::vector<uint32_t> intervals;
  std::vector<ByteState> state;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_WORKGROUPCHECKS_H
