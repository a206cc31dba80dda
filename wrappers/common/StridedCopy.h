//===- StridedCopy.h - Copies and fills of strided memrefs ----------------===//
//
// The host-side arithmetic of gpu.memcpy and gpu.memset on memrefs with any
// layout, shared by the backends: reading a memref descriptor, the byte range
// a memref spans (for bounds checks), and a loop nest that moves whole
// contiguous runs at a time.
//
// Work is split in two so that an asynchronous op can be checked and
// captured when it is enqueued (the program's descriptor lives on its stack
// and is gone by the time the stream runs the op): a `plan...` function reads
// the views and validates them, a `run...` function executes the plan.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_STRIDEDCOPY_H
#define GPU_RUNNER_WRAPPERS_COMMON_STRIDEDCOPY_H

#include "wrappers/common/RuntimeError.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

/// The contents of a ranked memref descriptor (StridedMemRefType), copied
/// out of the program's memory. Sizes and strides count elements.
struct MemRefView {
  char *aligned = nullptr;
  int64_t offset = 0;
  int64_t elementSizeBytes = 0;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;

  int64_t rank() const { return static_cast<int64_t>(sizes.size()); }
};

/// Reads the descriptor at `descriptor` as MLIR lays it out: allocated
/// pointer, aligned pointer, offset, sizes[rank], strides[rank]. `what`
/// names the memref in errors ("source", "destination", "memref"). Fails
/// on a null descriptor, a negative rank, a non-positive element size or a
/// negative size.
Status readMemRefDescriptor(int64_t rank, const void *descriptor,
                            int64_t elementSizeBytes, const char *what,
                            MemRefView &view);

/// "3x5", "7", or "a scalar" for rank 0: how messages print a shape.
std::string formatShape(const std::vector<int64_t> &sizes);

/// A range of bytes [begin, begin + bytes).
struct ByteRange {
  char *begin = nullptr;
  uint64_t bytes = 0;
};

/// The bytes that the elements of `view` occupy, from the lowest to the
/// highest element address (negative strides included; rank 0 is one
/// element); empty when a size is 0. Fails when the extent does not fit in
/// 64 bits.
Status computeByteRange(const MemRefView &view, const char *what,
                        ByteRange &range);

/// The bytes the memref at `descriptor` spans: readMemRefDescriptor, then
/// computeByteRange, as gpu.host_register and gpu.host_unregister need.
Status readMemRefByteRange(int64_t rank, const void *descriptor,
                           int64_t elementSizeBytes, ByteRange &range);

/// A strided copy as a loop nest around contiguous runs. Dimensions that are
/// contiguous on both sides are merged into the run, and adjacent outer
/// dimensions that step evenly on both sides into one loop, so a copy
/// between two contiguous memrefs is a single memcpy.
struct StridedCopyPlan {
  char *dst = nullptr;
  const char *src = nullptr;
  /// Bytes of one contiguous run; 0 when there is nothing to copy.
  uint64_t runBytes = 0;
  /// The loops around the runs, outermost first; strides in bytes.
  std::vector<int64_t> sizes;
  std::vector<int64_t> dstStrides;
  std::vector<int64_t> srcStrides;
  /// What each side spans, for the caller's bounds checks.
  ByteRange dstRange;
  ByteRange srcRange;

  /// How many runs (memcpy calls) the copy makes.
  uint64_t runCount() const;
};

/// Plans the copy of `src` into `dst`. Both must have the same element size
/// and sizes: otherwise "shape mismatch: the source is 3x5 but the
/// destination is 5x3".
Status planStridedCopy(const MemRefView &dst, const MemRefView &src,
                       StridedCopyPlan &plan);

/// The same for two memref descriptors of rank `rank` (readMemRefDescriptor):
/// what the mgpu ABI's strided copies pass.
Status planStridedCopy(int64_t rank, const void *dstDescriptor,
                       const void *srcDescriptor, int64_t elementSizeBytes,
                       StridedCopyPlan &plan);

/// A fill of a strided memref as a loop nest around contiguous runs, merged
/// the same way as a copy's.
struct StridedFillPlan {
  char *dst = nullptr;
  int64_t elementSizeBytes = 0;
  /// Elements of one contiguous run; 0 when there is nothing to fill.
  uint64_t runElements = 0;
  /// The loops around the runs, outermost first; strides in bytes.
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  ByteRange range;

  uint64_t runCount() const;
};

/// True for the element sizes a memset fills: 1, 2, 4 and 8 bytes.
bool isFillElementSize(int64_t elementSizeBytes);

/// Success for those sizes, else the error every backend's memset gives.
Status checkFillElementSize(int64_t elementSizeBytes);

/// Plans a fill of `dst`, whose element size must be 1, 2, 4 or 8 bytes.
Status planStridedFill(const MemRefView &dst, StridedFillPlan &plan);
/// The same for a memref descriptor of rank `rank`.
Status planStridedFill(int64_t rank, const void *descriptor,
                       int64_t elementSizeBytes, StridedFillPlan &plan);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_STRIDEDCOPY_H
