//===- GpuCopies.h - Strided copies as 1-D, 2-D and 3-D copies ------------===//
//
// The GPU drivers copy rectangles: cuMemcpy2DAsync / hipMemcpy2DAsync move
// `height` rows of `widthBytes` with a pitch on each side, and the 3-D forms
// move `depth` such slices. A StridedCopyPlan (StridedCopy.h) is a loop nest
// around contiguous runs; this splits it into as few rectangles as the
// strides allow, so that a strided gpu.memcpy costs one driver call when it
// fits in three dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_GPU_GPUCOPIES_H
#define GPU_RUNNER_WRAPPERS_GPU_GPUCOPIES_H

#include "wrappers/common/StridedCopy.h"

#include <cstdint>
#include <functional>

namespace gpu_runner {

/// `depth` slices of `height` rows of `widthBytes` bytes. Row r of slice s
/// starts at `dst + s * dstHeight * dstPitch + r * dstPitch` (likewise for
/// `src`).
struct RectangularCopy {
  char *dst = nullptr;
  const char *src = nullptr;
  uint64_t widthBytes = 0;
  uint64_t height = 1;
  uint64_t depth = 1;
  uint64_t dstPitch = 0;
  uint64_t srcPitch = 0;
  /// Rows from one slice to the next.
  uint64_t dstHeight = 0;
  uint64_t srcHeight = 0;

  /// 1 for a contiguous copy, 2 with rows, 3 with slices.
  unsigned dimensions() const { return depth > 1 ? 3 : height > 1 ? 2 : 1; }
};

/// The largest pitch the drivers take.
inline constexpr int64_t kMaxCopyPitch = (int64_t(1) << 31) - 1;

/// Calls `copy` for each rectangle of `plan`, in order, until it returns
/// false; returns whether every call returned true. Rows need both sides to
/// step forward by at least a run, with pitches up to kMaxCopyPitch; slices
/// need the next loop out to step by a whole number of rows, at least as
/// many as there are on both sides. Other strides (negative ones included)
/// become more, smaller rectangles.
bool forEachRectangularCopy(
    const StridedCopyPlan &plan,
    const std::function<bool(const RectangularCopy &)> &copy);

/// Copies one rectangle on the host, as a driver would: for tests.
void runRectangularCopy(const RectangularCopy &copy);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_GPU_GPUCOPIES_H
