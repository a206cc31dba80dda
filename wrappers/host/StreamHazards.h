//===- StreamHazards.h - racecheck of the host code against the streams ---===//
//
// A copy or memset enqueued on a stream runs when the stream gets to it; the
// host code may touch its memory only once it has waited for it (a
// gpu.wait on its token, or anything that waits for every stream). Without
// the wait, a GPU may not have run the copy yet: the forgotten gpu.wait that
// reads a copy's destination before the copy. Under --check=racecheck the
// host runtime notes each such op's ranges with the handles (streams,
// events) whose completion implies it, follows the handles as tokens are
// joined and recorded, drops what the host waited for, and reports a host
// access that falls in what is left.
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
  /// The op at `loc`, enqueued on `stream` (not null), reads or writes
  /// [begin, begin + bytes).
  void noteAccess(void *stream, const void *begin, uint64_t bytes, bool write,
                  const char *loc);

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
    uintptr_t begin;
    uintptr_t end;
    bool write;
    const char *loc;
    std::vector<void *> handles;
  };
  /// At most this many pending accesses are kept, the oldest dropped first.
  static constexpr size_t kMaxAccesses = 1 << 16;

  bool enabled = false;
  mutable std::mutex mutex;
  std::deque<Access> accesses;
  /// accesses.size(), read without the lock: the host code's every access
  /// asks, and there is mostly nothing pending.
  std::atomic<size_t> pending{0};
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_STREAMHAZARDS_H
