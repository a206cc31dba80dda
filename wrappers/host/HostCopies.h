//===- HostCopies.h - Copies and fills of host memory ---------------------===//
//
// The strided plans of common/StridedCopy.h executed on the host: what the
// host backend's streams run for gpu.memcpy and gpu.memset, whose device
// memory is host memory.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTCOPIES_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTCOPIES_H

#include "wrappers/common/StridedCopy.h"

#include <cstdint>
#include <functional>

namespace gpu_runner {

/// Threads that run the parts of a large copy or fill together (the host
/// backend's kernel executor).
class ParallelRunner {
public:
  /// Runs `body(context, index)` for every index in [0, count), on the
  /// calling thread and others, in no guaranteed order, and returns once
  /// every index has run. `body` must not fail.
  virtual void runParallel(int64_t count, void (*body)(void *, int64_t),
                           void *context) = 0;

protected:
  ~ParallelRunner() = default;
};

/// Executes a plan made by planStridedCopy; a plan of one run is a
/// copyBytes, in parts on `pool` where it is large.
void runStridedCopy(const StridedCopyPlan &plan,
                    ParallelRunner *pool = nullptr);

/// Executes a plan made by planStridedFill; `value` holds the element's bits
/// in its low bytes.
void runStridedFill(const StridedFillPlan &plan, uint64_t value,
                    ParallelRunner *pool = nullptr);

/// Calls `body(dst, src, bytes)` for each contiguous run the plan copies,
/// in order, without copying: for the checks that look at what a copy
/// reads and writes (initcheck).
void forEachCopyRun(
    const StridedCopyPlan &plan,
    const std::function<void(char *, const char *, uint64_t)> &body);

/// The same for the runs a fill writes: `body(dst, bytes)`.
void forEachFillRun(const StridedFillPlan &plan,
                    const std::function<void(char *, uint64_t)> &body);

/// Copies and fills of at least this many bytes are split into parts that
/// the threads of a ParallelRunner run at once, where a pool is given: one
/// core's loads and stores do not reach the memory's bandwidth (see
/// benchmarks/memcpy/README.md).
constexpr uint64_t kParallelCopyBytes = uint64_t(8) << 20;

/// Copies `bytes` contiguous bytes: memcpy, or memmove when the ranges
/// overlap (which would make memcpy undefined). A copy of at least
/// kParallelCopyBytes whose ranges do not overlap runs in parts on the
/// calling thread and `pool`'s workers, where `pool` is given.
void copyBytes(void *dst, const void *src, uint64_t bytes,
               ParallelRunner *pool = nullptr);

/// Fills `count` contiguous elements of `elementSizeBytes` (1, 2, 4 or 8)
/// bytes with the low bytes of `value`: memset when all of the element's
/// bytes are equal, wide stores of a repeated pattern otherwise. A fill of
/// at least kParallelCopyBytes runs in parts as copyBytes's do.
void fillElements(void *dst, uint64_t value, int64_t elementSizeBytes,
                  uint64_t count, ParallelRunner *pool = nullptr);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTCOPIES_H
