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

/// Executes a plan made by planStridedCopy.
void runStridedCopy(const StridedCopyPlan &plan);

/// Executes a plan made by planStridedFill; `value` holds the element's bits
/// in its low bytes.
void runStridedFill(const StridedFillPlan &plan, uint64_t value);

/// Copies `bytes` contiguous bytes: memcpy, or memmove when the ranges
/// overlap (which would make memcpy undefined).
/// Calls `body(dst, src, bytes)` for each contiguous run the plan copies,
/// in order, without copying: for the checks that look at what a copy
/// reads and writes (initcheck).
void forEachCopyRun(
    const StridedCopyPlan &plan,
    const std::function<void(char *, const char *, uint64_t)> &body);

/// The same for the runs a fill writes: `body(dst, bytes)`.
void forEachFillRun(const StridedFillPlan &plan,
                    const std::function<void(char *, uint64_t)> &body);

void copyBytes(void *dst, const void *src, uint64_t bytes);

/// Fills `count` contiguous elements of `elementSizeBytes` (1, 2, 4 or 8)
/// bytes with the low bytes of `value`: memset when all of the element's
/// bytes are equal, wide stores of a repeated pattern otherwise.
void fillElements(void *dst, uint64_t value, int64_t elementSizeBytes,
                  uint64_t count);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTCOPIES_H
