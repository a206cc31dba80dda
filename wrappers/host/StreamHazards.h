//===- StreamHazards.h - racecheck of the streams' copies and memsets -----===//
//
// A copy or memset enqueued on a stream runs when the stream gets to it; the
// host code may touch its memory only once it has waited for it (a
// gpu.wait on its token, or anything that waits for every stream). Without
// the wait, a GPU may not have run the copy yet: the forgotten gpu.wait that
// reads a copy's destination before the copy. Likewise an op on another
// stream runs after it only where a token orders the two; otherwise a GPU
// runs them at once, in either order. Under --check=racecheck the host
// runtime notes each such op's bytes with the handles (streams, events)
// whose completion implies it, follows the handles as tokens are joined and
// recorded, and drops what the host waited for. A host access that falls in
// what is left is a hazard, and so is an op on a stream that no handle of
// an access it overlaps names.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_STREAMHAZARDS_H
#define GPU_RUNNER_WRAPPERS_HOST_STREAMHAZARDS_H

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace gpu_runner {

class StreamHazards {
public:
  /// The bytes [begin, end).
  struct Range {
    uintptr_t begin;
    uintptr_t end;
  };

  /// A pending access that a new one conflicts with: its op, and whether it
  /// writes.
  struct Conflict {
    const char *loc = nullptr;
    bool write = false;
    explicit operator bool() const { return loc != nullptr; }
  };

  /// At most this many runs describe one strided op; the op of more is not
  /// noted (noteAccess with no runs), so it is never reported, rather than
  /// taken to touch the gaps between its runs.
  static constexpr uint64_t kMaxRuns = 4096;

  /// The op at `loc`, enqueued on `stream` (not null), reads or writes the
  /// bytes of `runs`, sorted and disjoint. Returns a pending access that it
  /// conflicts with: one that touches some of the same bytes, where one of
  /// the two writes, and that `stream` is not ordered after (no join, event
  /// or token made `stream` cover it).
  Conflict noteAccess(void *stream, std::vector<Range> runs, bool write,
                      const char *loc);

  /// The same for [begin, begin + bytes).
  Conflict noteAccess(void *stream, const void *begin, uint64_t bytes,
                      bool write, const char *loc);

  /// Waiting for `to` now implies waiting for what `from` covers (a join,
  /// an event recorded on a stream, a stream made from a token); a null
  /// `from` is all the work enqueued so far.
  void cover(void *from, void *to);

  /// The host waited for `handle`'s work; null: for every stream's.
  void observe(void *handle);

  /// The op of a pending access that the host code's access at `address`
  /// conflicts with (it writes, or the pending op writes), or null.
  const char *findHazard(const void *address, bool write) const;

  /// Forgets every pending access; the functions above do nothing, and
  /// findHazard finds nothing, unless `enabled` (racecheck is on).
  void reset(bool enabled);

private:
  struct Access {
    std::vector<Range> runs;
    bool write;
    const char *loc;
    std::vector<void *> handles;
  };
  /// At most this many runs of pending accesses are kept, the oldest
  /// accesses dropped first.
  static constexpr size_t kMaxPendingRuns = 1 << 18;

  bool enabled = false;
  mutable std::mutex mutex;
  std::deque<Access> accesses;
  /// The runs of `accesses`, together.
  size_t pendingRuns = 0;
  /// accesses.size(), read without the lock: the host code's every access
  /// asks, and there is mostly nothing pending.
  std::atomic<size_t> pending{0};
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_STREAMHAZARDS_H
