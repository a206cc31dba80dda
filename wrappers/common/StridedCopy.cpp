//===- StridedCopy.cpp - Copies and fills of strided memrefs --------------===//
//
// See StridedCopy.h.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/StridedCopy.h"

#include <cstring>

namespace gpu_runner {

namespace {

/// One dimension of a loop nest over one or two memrefs; strides count
/// elements until the plan converts them to bytes.
struct Dim {
  int64_t size;
  int64_t stride[2];
};

/// Merges the dimensions of `sizes` with per-side `strides` (one or two
/// sides) into a contiguous run of elements, returned, and the loops around
/// it in `outer`, outermost first. Expects no size to be 0.
uint64_t coalesce(const std::vector<int64_t> &sizes,
                  const std::vector<int64_t> *const strides[], int sides,
                  std::vector<Dim> &outer) {
  std::vector<Dim> dims;
  for (size_t i = 0; i < sizes.size(); ++i) {
    // A dimension of size 1 never steps, whatever its stride says.
    if (sizes[i] == 1)
      continue;
    Dim dim{sizes[i], {0, 0}};
    for (int side = 0; side < sides; ++side)
      dim.stride[side] = (*strides[side])[i];
    dims.push_back(dim);
  }

  // Innermost dimensions whose stride equals the run so far, on every side,
  // extend the run.
  uint64_t run = 1;
  while (!dims.empty()) {
    const Dim &dim = dims.back();
    bool contiguous = true;
    for (int side = 0; side < sides; ++side)
      contiguous &= dim.stride[side] == static_cast<int64_t>(run);
    if (!contiguous)
      break;
    run *= static_cast<uint64_t>(dim.size);
    dims.pop_back();
  }

  // An outer dimension that steps exactly over its inner neighbour on every
  // side folds into it: one loop instead of two.
  outer.clear();
  for (const Dim &dim : dims) {
    if (!outer.empty()) {
      Dim &previous = outer.back();
      bool folds = true;
      for (int side = 0; side < sides; ++side)
        folds &= previous.stride[side] == dim.stride[side] * dim.size;
      if (folds) {
        previous.size *= dim.size;
        for (int side = 0; side < sides; ++side)
          previous.stride[side] = dim.stride[side];
        continue;
      }
    }
    outer.push_back(dim);
  }
  return run;
}

bool hasZeroSize(const MemRefView &view) {
  for (int64_t size : view.sizes)
    if (size == 0)
      return true;
  return false;
}

} // namespace

Status readMemRefDescriptor(int64_t rank, const void *descriptor,
                            int64_t elementSizeBytes, const char *what,
                            MemRefView &view) {
  if (!descriptor)
    return Status::error(std::string("the ") + what +
                         " memref descriptor is a null pointer");
  if (rank < 0)
    return Status::error(std::string("the ") + what +
                         " memref has a negative rank, " +
                         std::to_string(rank));
  if (elementSizeBytes <= 0)
    return Status::error(std::string("the ") + what +
                         " memref has an element size of " +
                         std::to_string(elementSizeBytes) + " bytes");

  // Field by field with memcpy: the descriptor is program memory of no
  // particular type.
  const char *fields = static_cast<const char *>(descriptor);
  void *aligned;
  std::memcpy(&aligned, fields + sizeof(void *), sizeof(void *));
  const char *integers = fields + 2 * sizeof(void *);
  view.aligned = static_cast<char *>(aligned);
  std::memcpy(&view.offset, integers, sizeof(int64_t));
  view.elementSizeBytes = elementSizeBytes;
  view.sizes.resize(rank);
  view.strides.resize(rank);
  if (rank > 0) {
    std::memcpy(view.sizes.data(), integers + sizeof(int64_t),
                rank * sizeof(int64_t));
    std::memcpy(view.strides.data(), integers + (1 + rank) * sizeof(int64_t),
                rank * sizeof(int64_t));
  }
  for (int64_t i = 0; i < rank; ++i)
    if (view.sizes[i] < 0)
      return Status::error(std::string("the ") + what +
                           " has a negative size, " +
                           std::to_string(view.sizes[i]) + ", in dimension " +
                           std::to_string(i));
  return Status();
}

std::string formatShape(const std::vector<int64_t> &sizes) {
  if (sizes.empty())
    return "a scalar";
  std::string text;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i)
      text += 'x';
    text += std::to_string(sizes[i]);
  }
  return text;
}

Status computeByteRange(const MemRefView &view, const char *what,
                        ByteRange &range) {
  range = ByteRange{view.aligned, 0};
  if (hasZeroSize(view))
    return Status();

  // Built only for an error: this is on the path of every copy.
  auto overflow = [&] {
    return Status::error(std::string("the ") + what + " (" +
                         formatShape(view.sizes) +
                         ") spans more bytes than 64 bits can count");
  };
  // Lowest and highest element offsets, in elements.
  int64_t lowest = view.offset, highest = view.offset;
  for (size_t i = 0; i < view.sizes.size(); ++i) {
    int64_t extent;
    if (__builtin_mul_overflow(view.sizes[i] - 1, view.strides[i], &extent))
      return overflow();
    if (__builtin_add_overflow(extent < 0 ? lowest : highest, extent,
                               extent < 0 ? &lowest : &highest))
      return overflow();
  }
  int64_t lowestByte, elements, bytes;
  if (__builtin_mul_overflow(lowest, view.elementSizeBytes, &lowestByte) ||
      __builtin_sub_overflow(highest, lowest, &elements) ||
      __builtin_add_overflow(elements, 1, &elements) ||
      __builtin_mul_overflow(elements, view.elementSizeBytes, &bytes))
    return overflow();
  // Integer arithmetic: a wrong descriptor may point anywhere, and the bounds
  // check that follows has to see where.
  range.begin =
      reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(view.aligned) +
                               static_cast<uintptr_t>(lowestByte));
  range.bytes = static_cast<uint64_t>(bytes);
  return Status();
}

uint64_t StridedCopyPlan::runCount() const {
  if (runBytes == 0)
    return 0;
  uint64_t count = 1;
  for (int64_t size : sizes)
    count *= static_cast<uint64_t>(size);
  return count;
}

Status planStridedCopy(const MemRefView &dst, const MemRefView &src,
                       StridedCopyPlan &plan) {
  plan = StridedCopyPlan();
  if (dst.elementSizeBytes != src.elementSizeBytes)
    return Status::error("element size mismatch: the source has " +
                         std::to_string(src.elementSizeBytes) +
                         "-byte elements but the destination " +
                         std::to_string(dst.elementSizeBytes) + "-byte ones");
  if (dst.sizes != src.sizes)
    return Status::error("shape mismatch: the source is " +
                         formatShape(src.sizes) + " but the destination is " +
                         formatShape(dst.sizes));
  GPU_RUNNER_RETURN_IF_ERROR(
      computeByteRange(dst, "destination", plan.dstRange));
  GPU_RUNNER_RETURN_IF_ERROR(computeByteRange(src, "source", plan.srcRange));
  if (hasZeroSize(dst))
    return Status();

  const int64_t elementSize = dst.elementSizeBytes;
  const std::vector<int64_t> *strides[2] = {&dst.strides, &src.strides};
  std::vector<Dim> outer;
  uint64_t runElements = coalesce(dst.sizes, strides, 2, outer);
  // computeByteRange bounded every extent, so these products fit.
  plan.dst = dst.aligned + dst.offset * elementSize;
  plan.src = src.aligned + src.offset * elementSize;
  plan.runBytes = runElements * static_cast<uint64_t>(elementSize);
  for (const Dim &dim : outer) {
    plan.sizes.push_back(dim.size);
    plan.dstStrides.push_back(dim.stride[0] * elementSize);
    plan.srcStrides.push_back(dim.stride[1] * elementSize);
  }
  return Status();
}

uint64_t StridedFillPlan::runCount() const {
  if (runElements == 0)
    return 0;
  uint64_t count = 1;
  for (int64_t size : sizes)
    count *= static_cast<uint64_t>(size);
  return count;
}

bool isFillElementSize(int64_t elementSizeBytes) {
  return elementSizeBytes == 1 || elementSizeBytes == 2 ||
         elementSizeBytes == 4 || elementSizeBytes == 8;
}

Status checkFillElementSize(int64_t elementSizeBytes) {
  if (isFillElementSize(elementSizeBytes))
    return Status();
  return Status::error("cannot fill elements of " +
                       std::to_string(elementSizeBytes) +
                       " bytes: a memset fills elements of 1, 2, 4 or 8 "
                       "bytes");
}

Status planStridedFill(const MemRefView &dst, StridedFillPlan &plan) {
  plan = StridedFillPlan();
  GPU_RUNNER_RETURN_IF_ERROR(checkFillElementSize(dst.elementSizeBytes));
  GPU_RUNNER_RETURN_IF_ERROR(computeByteRange(dst, "destination", plan.range));
  if (hasZeroSize(dst))
    return Status();

  const int64_t elementSize = dst.elementSizeBytes;
  const std::vector<int64_t> *strides[1] = {&dst.strides};
  std::vector<Dim> outer;
  plan.runElements = coalesce(dst.sizes, strides, 1, outer);
  plan.dst = dst.aligned + dst.offset * elementSize;
  plan.elementSizeBytes = elementSize;
  for (const Dim &dim : outer) {
    plan.sizes.push_back(dim.size);
    plan.strides.push_back(dim.stride[0] * elementSize);
  }
  return Status();
}

Status readMemRefByteRange(int64_t rank, const void *descriptor,
                           int64_t elementSizeBytes, ByteRange &range) {
  MemRefView view;
  GPU_RUNNER_RETURN_IF_ERROR(
      readMemRefDescriptor(rank, descriptor, elementSizeBytes, "memref", view));
  return computeByteRange(view, "memref", range);
}

namespace {

/// One side of a contiguous rank-1 copy: its first byte and its bytes, as
/// readMemRefDescriptor and computeByteRange would find them. False when
/// the general path has to look (a null descriptor, a stride other than 1
/// on more than one element, a size of 0 or less, any overflow).
bool readContiguousSide(const void *descriptor, int64_t elementSizeBytes,
                        char *&begin, int64_t &size) {
  if (!descriptor)
    return false;
  const char *fields = static_cast<const char *>(descriptor);
  void *aligned;
  int64_t offset, stride;
  std::memcpy(&aligned, fields + sizeof(void *), sizeof(void *));
  const char *integers = fields + 2 * sizeof(void *);
  std::memcpy(&offset, integers, sizeof(int64_t));
  std::memcpy(&size, integers + sizeof(int64_t), sizeof(int64_t));
  std::memcpy(&stride, integers + 2 * sizeof(int64_t), sizeof(int64_t));
  if (size <= 0 || (stride != 1 && size != 1))
    return false;
  int64_t highest, lowestByte, bytes;
  if (__builtin_add_overflow(offset, size - 1, &highest) ||
      __builtin_mul_overflow(offset, elementSizeBytes, &lowestByte) ||
      __builtin_mul_overflow(size, elementSizeBytes, &bytes))
    return false;
  begin = reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(aligned) +
                                   static_cast<uintptr_t>(lowestByte));
  return true;
}

} // namespace

Status planStridedCopy(int64_t rank, const void *dstDescriptor,
                       const void *srcDescriptor, int64_t elementSizeBytes,
                       StridedCopyPlan &plan) {
  // The common case, a copy between two contiguous rank-1 memrefs of the
  // same size, without the vectors (and allocations) of the general path:
  // it is on the path of every gpu.memcpy. It plans what the general path
  // would; anything else goes there.
  if (rank == 1 && elementSizeBytes > 0) {
    char *dstBegin, *srcBegin;
    int64_t dstSize, srcSize;
    if (readContiguousSide(dstDescriptor, elementSizeBytes, dstBegin,
                           dstSize) &&
        readContiguousSide(srcDescriptor, elementSizeBytes, srcBegin,
                           srcSize) &&
        dstSize == srcSize) {
      plan = StridedCopyPlan();
      uint64_t bytes = static_cast<uint64_t>(dstSize) *
                       static_cast<uint64_t>(elementSizeBytes);
      plan.dst = dstBegin;
      plan.src = srcBegin;
      plan.runBytes = bytes;
      plan.dstRange = ByteRange{dstBegin, bytes};
      plan.srcRange = ByteRange{srcBegin, bytes};
      return Status();
    }
  }
  MemRefView dst, src;
  GPU_RUNNER_RETURN_IF_ERROR(readMemRefDescriptor(
      rank, srcDescriptor, elementSizeBytes, "source", src));
  GPU_RUNNER_RETURN_IF_ERROR(readMemRefDescriptor(
      rank, dstDescriptor, elementSizeBytes, "destination", dst));
  return planStridedCopy(dst, src, plan);
}

Status planStridedFill(int64_t rank, const void *descriptor,
                       int64_t elementSizeBytes, StridedFillPlan &plan) {
  MemRefView dst;
  GPU_RUNNER_RETURN_IF_ERROR(readMemRefDescriptor(
      rank, descriptor, elementSizeBytes, "destination", dst));
  return planStridedFill(dst, plan);
}

} // namespace gpu_runner
