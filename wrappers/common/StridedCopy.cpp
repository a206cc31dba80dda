//===- StridedCopy.cpp - Copies and fills of strided memrefs --------------===//
//
// See StridedCopy.h. The loops here are the hot path of every gpu.memcpy and
// gpu.memset on the host backend: whole runs go through memcpy/memset, and
// single-element runs through fixed-size accesses the compiler turns into
// plain loads and stores.
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

/// Copies `count` runs of exactly N bytes: a fixed-size memcpy is a plain
/// load and store.
template <int N>
void copyFixedRuns(uintptr_t dst, uintptr_t src, int64_t count,
                   int64_t dstStride, int64_t srcStride) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
                N);
    dst += dstStride;
    src += srcStride;
  }
}

/// The innermost loop of a copy: `count` runs of `runBytes`.
void copyRuns(uintptr_t dst, uintptr_t src, int64_t count, int64_t dstStride,
              int64_t srcStride, uint64_t runBytes) {
  switch (runBytes) {
  case 1:
    return copyFixedRuns<1>(dst, src, count, dstStride, srcStride);
  case 2:
    return copyFixedRuns<2>(dst, src, count, dstStride, srcStride);
  case 4:
    return copyFixedRuns<4>(dst, src, count, dstStride, srcStride);
  case 8:
    return copyFixedRuns<8>(dst, src, count, dstStride, srcStride);
  case 16:
    return copyFixedRuns<16>(dst, src, count, dstStride, srcStride);
  default:
    for (int64_t i = 0; i < count; ++i) {
      std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
                  runBytes);
      dst += dstStride;
      src += srcStride;
    }
  }
}

/// Stores `count` elements of type T, `stride` bytes apart.
template <typename T>
void storeFixedElements(uintptr_t dst, int64_t count, int64_t stride,
                        uint64_t value) {
  const T element = static_cast<T>(value);
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(reinterpret_cast<void *>(dst), &element, sizeof(T));
    dst += stride;
  }
}

/// The element's bytes in memory order: the low `elementSizeBytes` bytes of
/// `value`, as the host stores an integer of that width.
void elementBytes(uint64_t value, int64_t elementSizeBytes,
                  unsigned char bytes[8]) {
  switch (elementSizeBytes) {
  case 1: {
    uint8_t element = static_cast<uint8_t>(value);
    std::memcpy(bytes, &element, 1);
    return;
  }
  case 2: {
    uint16_t element = static_cast<uint16_t>(value);
    std::memcpy(bytes, &element, 2);
    return;
  }
  case 4: {
    uint32_t element = static_cast<uint32_t>(value);
    std::memcpy(bytes, &element, 4);
    return;
  }
  default:
    std::memcpy(bytes, &value, 8);
  }
}

/// The innermost loop of a fill: `count` runs of `runElements` elements.
void fillRuns(uintptr_t dst, int64_t count, int64_t stride, uint64_t value,
              int64_t elementSizeBytes, uint64_t runElements) {
  if (runElements == 1) {
    switch (elementSizeBytes) {
    case 1:
      return storeFixedElements<uint8_t>(dst, count, stride, value);
    case 2:
      return storeFixedElements<uint16_t>(dst, count, stride, value);
    case 4:
      return storeFixedElements<uint32_t>(dst, count, stride, value);
    default:
      return storeFixedElements<uint64_t>(dst, count, stride, value);
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    fillElements(reinterpret_cast<void *>(dst), value, elementSizeBytes,
                 runElements);
    dst += stride;
  }
}

/// Calls `body(dstOffset, srcOffset)` for each combination of the indices of
/// all loops but the innermost, in order; offsets in bytes. An odometer, so
/// that any rank works without recursion.
template <typename Body>
void forEachOuterIndex(const std::vector<int64_t> &sizes,
                       const std::vector<int64_t> &dstStrides,
                       const std::vector<int64_t> *srcStrides, Body body) {
  size_t outerLoops = sizes.size() - 1;
  std::vector<int64_t> index(outerLoops, 0);
  int64_t dstOffset = 0, srcOffset = 0;
  while (true) {
    body(dstOffset, srcOffset);
    size_t loop = outerLoops;
    while (loop > 0) {
      --loop;
      dstOffset += dstStrides[loop];
      if (srcStrides)
        srcOffset += (*srcStrides)[loop];
      if (++index[loop] < sizes[loop])
        break;
      dstOffset -= dstStrides[loop] * sizes[loop];
      if (srcStrides)
        srcOffset -= (*srcStrides)[loop] * sizes[loop];
      index[loop] = 0;
      if (loop == 0)
        return;
    }
    if (outerLoops == 0)
      return;
  }
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

  Status overflow = Status::error(std::string("the ") + what + " (" +
                                  formatShape(view.sizes) +
                                  ") spans more bytes than 64 bits can count");
  // Lowest and highest element offsets, in elements.
  int64_t lowest = view.offset, highest = view.offset;
  for (size_t i = 0; i < view.sizes.size(); ++i) {
    int64_t extent;
    if (__builtin_mul_overflow(view.sizes[i] - 1, view.strides[i], &extent))
      return overflow;
    if (__builtin_add_overflow(extent < 0 ? lowest : highest, extent,
                               extent < 0 ? &lowest : &highest))
      return overflow;
  }
  int64_t lowestByte, elements, bytes;
  if (__builtin_mul_overflow(lowest, view.elementSizeBytes, &lowestByte) ||
      __builtin_sub_overflow(highest, lowest, &elements) ||
      __builtin_add_overflow(elements, 1, &elements) ||
      __builtin_mul_overflow(elements, view.elementSizeBytes, &bytes))
    return overflow;
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

void runStridedCopy(const StridedCopyPlan &plan) {
  if (plan.runBytes == 0)
    return;
  if (plan.sizes.empty())
    return copyBytes(plan.dst, plan.src, plan.runBytes);
  uintptr_t dst = reinterpret_cast<uintptr_t>(plan.dst);
  uintptr_t src = reinterpret_cast<uintptr_t>(plan.src);
  int64_t innerSize = plan.sizes.back();
  int64_t innerDstStride = plan.dstStrides.back();
  int64_t innerSrcStride = plan.srcStrides.back();
  forEachOuterIndex(plan.sizes, plan.dstStrides, &plan.srcStrides,
                    [&](int64_t dstOffset, int64_t srcOffset) {
                      copyRuns(dst + dstOffset, src + srcOffset, innerSize,
                               innerDstStride, innerSrcStride, plan.runBytes);
                    });
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

Status planStridedFill(const MemRefView &dst, StridedFillPlan &plan) {
  plan = StridedFillPlan();
  if (!isFillElementSize(dst.elementSizeBytes))
    return Status::error("cannot fill elements of " +
                         std::to_string(dst.elementSizeBytes) +
                         " bytes: a memset fills elements of 1, 2, 4 or 8 "
                         "bytes");
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

void runStridedFill(const StridedFillPlan &plan, uint64_t value) {
  if (plan.runElements == 0)
    return;
  if (plan.sizes.empty())
    return fillElements(plan.dst, value, plan.elementSizeBytes,
                        plan.runElements);
  uintptr_t dst = reinterpret_cast<uintptr_t>(plan.dst);
  int64_t innerSize = plan.sizes.back();
  int64_t innerStride = plan.strides.back();
  forEachOuterIndex(plan.sizes, plan.strides, nullptr,
                    [&](int64_t dstOffset, int64_t) {
                      fillRuns(dst + dstOffset, innerSize, innerStride, value,
                               plan.elementSizeBytes, plan.runElements);
                    });
}

void copyBytes(void *dst, const void *src, uint64_t bytes) {
  if (bytes == 0 || dst == src)
    return;
  uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  uintptr_t s = reinterpret_cast<uintptr_t>(src);
  bool overlap = d < s ? s - d < bytes : d - s < bytes;
  if (overlap)
    std::memmove(dst, src, bytes);
  else
    std::memcpy(dst, src, bytes);
}

void fillElements(void *dst, uint64_t value, int64_t elementSizeBytes,
                  uint64_t count) {
  if (count == 0)
    return;
  const uint64_t bytes = count * static_cast<uint64_t>(elementSizeBytes);
  unsigned char element[8];
  elementBytes(value, elementSizeBytes, element);
  bool uniform = true;
  for (int64_t i = 1; i < elementSizeBytes; ++i)
    uniform &= element[i] == element[0];
  if (uniform)
    return (void)std::memset(dst, element[0], bytes);

  // A 64-byte block of repeated elements, stored with fixed-size memcpys
  // (vector stores); 64 is a multiple of every element size, so each block
  // starts on an element.
  unsigned char pattern[64];
  for (int i = 0; i < 64; i += static_cast<int>(elementSizeBytes))
    std::memcpy(pattern + i, element, elementSizeBytes);
  unsigned char *out = static_cast<unsigned char *>(dst);
  uint64_t left = bytes;
  for (; left >= 64; left -= 64, out += 64)
    std::memcpy(out, pattern, 64);
  std::memcpy(out, pattern, left);
}

Status readMemRefByteRange(int64_t rank, const void *descriptor,
                           int64_t elementSizeBytes, ByteRange &range) {
  MemRefView view;
  GPU_RUNNER_RETURN_IF_ERROR(
      readMemRefDescriptor(rank, descriptor, elementSizeBytes, "memref", view));
  return computeByteRange(view, "memref", range);
}

Status planStridedCopy(int64_t rank, const void *dstDescriptor,
                       const void *srcDescriptor, int64_t elementSizeBytes,
                       StridedCopyPlan &plan) {
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
