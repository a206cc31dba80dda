//===- GpuCopies.cpp - Strided copies as 1-D, 2-D and 3-D copies ----------===//

#include "wrappers/gpu/GpuCopies.h"

#include <cstring>
#include <vector>

namespace gpu_runner {
namespace {

bool isPitch(int64_t stride, uint64_t widthBytes) {
  return stride > 0 && static_cast<uint64_t>(stride) >= widthBytes &&
         stride <= kMaxCopyPitch;
}

/// The rows from one slice to the next, when `stride` is a whole number of
/// at least `height` rows of `pitch`; else 0.
uint64_t getSliceHeight(int64_t stride, uint64_t pitch, uint64_t height) {
  if (stride <= 0 || static_cast<uint64_t>(stride) % pitch != 0)
    return 0;
  uint64_t rows = static_cast<uint64_t>(stride) / pitch;
  return rows >= height ? rows : 0;
}

} // namespace

bool forEachRectangularCopy(
    const StridedCopyPlan &plan,
    const std::function<bool(const RectangularCopy &)> &copy) {
  if (plan.runBytes == 0)
    return true;
  size_t loops = plan.sizes.size();
  RectangularCopy shape;
  shape.widthBytes = plan.runBytes;
  size_t outer = loops;
  if (loops >= 1 && isPitch(plan.dstStrides[loops - 1], plan.runBytes) &&
      isPitch(plan.srcStrides[loops - 1], plan.runBytes)) {
    shape.height = static_cast<uint64_t>(plan.sizes[loops - 1]);
    shape.dstPitch = static_cast<uint64_t>(plan.dstStrides[loops - 1]);
    shape.srcPitch = static_cast<uint64_t>(plan.srcStrides[loops - 1]);
    outer = loops - 1;
    if (loops >= 2) {
      uint64_t dstHeight = getSliceHeight(plan.dstStrides[loops - 2],
                                          shape.dstPitch, shape.height);
      uint64_t srcHeight = getSliceHeight(plan.srcStrides[loops - 2],
                                          shape.srcPitch, shape.height);
      if (dstHeight && srcHeight) {
        shape.depth = static_cast<uint64_t>(plan.sizes[loops - 2]);
        shape.dstHeight = dstHeight;
        shape.srcHeight = srcHeight;
        outer = loops - 2;
      }
    }
  }

  std::vector<int64_t> index(outer, 0);
  while (true) {
    RectangularCopy rectangle = shape;
    rectangle.dst = plan.dst;
    rectangle.src = plan.src;
    for (size_t i = 0; i < outer; ++i) {
      rectangle.dst += index[i] * plan.dstStrides[i];
      rectangle.src += index[i] * plan.srcStrides[i];
    }
    if (!copy(rectangle))
      return false;
    // The next index, innermost loop first.
    size_t i = outer;
    while (i > 0 && ++index[i - 1] == plan.sizes[i - 1])
      index[--i] = 0;
    if (i == 0)
      return true;
  }
}

void runRectangularCopy(const RectangularCopy &copy) {
  for (uint64_t slice = 0; slice < copy.depth; ++slice)
    for (uint64_t row = 0; row < copy.height; ++row)
      std::memmove(copy.dst + (slice * copy.dstHeight + row) * copy.dstPitch,
                   copy.src + (slice * copy.srcHeight + row) * copy.srcPitch,
                   copy.widthBytes);
}

} // namespace gpu_runner
