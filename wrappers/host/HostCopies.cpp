//===- HostCopies.cpp - Copies and fills of host memory -------------------===//
//
// See HostCopies.h. The loops here are the hot path of every gpu.memcpy and
// gpu.memset on the host backend: whole runs go through memcpy/memset, and
// single-element runs through fixed-size accesses the compiler turns into
// plain loads and stores.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostCopies.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <thread>

namespace gpu_runner {

namespace {

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

/// The parts of a copy or fill that runs on a ParallelRunner's threads:
/// a multiple of 64 bytes, so that every part of a fill starts on an
/// element.
constexpr uint64_t kPartBytes = uint64_t(1) << 20;

bool inParts(uint64_t bytes, const ParallelRunner *pool) {
  return pool && bytes >= kParallelCopyBytes &&
         std::thread::hardware_concurrency() > 1;
}

int64_t partCount(uint64_t bytes) {
  return static_cast<int64_t>((bytes + kPartBytes - 1) / kPartBytes);
}

struct CopyInParts {
  char *dst;
  const char *src;
  uint64_t bytes;

  static void run(void *context, int64_t part) {
    const auto &copy = *static_cast<const CopyInParts *>(context);
    uint64_t offset = static_cast<uint64_t>(part) * kPartBytes;
    std::memcpy(copy.dst + offset, copy.src + offset,
                std::min(kPartBytes, copy.bytes - offset));
  }
};

struct FillInParts {
  char *dst;
  uint64_t value;
  int64_t elementSizeBytes;
  uint64_t bytes;

  static void run(void *context, int64_t part) {
    const auto &fill = *static_cast<const FillInParts *>(context);
    uint64_t offset = static_cast<uint64_t>(part) * kPartBytes;
    uint64_t partBytes = std::min(kPartBytes, fill.bytes - offset);
    fillElements(fill.dst + offset, fill.value, fill.elementSizeBytes,
                 partBytes / static_cast<uint64_t>(fill.elementSizeBytes));
  }
};

} // namespace

void runStridedCopy(const StridedCopyPlan &plan, ParallelRunner *pool) {
  if (plan.runBytes == 0)
    return;
  if (plan.sizes.empty())
    return copyBytes(plan.dst, plan.src, plan.runBytes, pool);
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

void runStridedFill(const StridedFillPlan &plan, uint64_t value,
                    ParallelRunner *pool) {
  if (plan.runElements == 0)
    return;
  if (plan.sizes.empty())
    return fillElements(plan.dst, value, plan.elementSizeBytes,
                        plan.runElements, pool);
  uintptr_t dst = reinterpret_cast<uintptr_t>(plan.dst);
  int64_t innerSize = plan.sizes.back();
  int64_t innerStride = plan.strides.back();
  forEachOuterIndex(plan.sizes, plan.strides, nullptr,
                    [&](int64_t dstOffset, int64_t) {
                      fillRuns(dst + dstOffset, innerSize, innerStride, value,
                               plan.elementSizeBytes, plan.runElements);
                    });
}

void forEachCopyRun(
    const StridedCopyPlan &plan,
    const std::function<void(char *, const char *, uint64_t)> &body) {
  if (plan.runBytes == 0)
    return;
  if (plan.sizes.empty())
    return body(plan.dst, plan.src, plan.runBytes);
  int64_t innerSize = plan.sizes.back();
  int64_t innerDstStride = plan.dstStrides.back();
  int64_t innerSrcStride = plan.srcStrides.back();
  forEachOuterIndex(plan.sizes, plan.dstStrides, &plan.srcStrides,
                    [&](int64_t dstOffset, int64_t srcOffset) {
                      for (int64_t i = 0; i < innerSize; ++i)
                        body(plan.dst + dstOffset + i * innerDstStride,
                             plan.src + srcOffset + i * innerSrcStride,
                             plan.runBytes);
                    });
}

void forEachFillRun(const StridedFillPlan &plan,
                    const std::function<void(char *, uint64_t)> &body) {
  uint64_t runBytes =
      plan.runElements * static_cast<uint64_t>(plan.elementSizeBytes);
  if (runBytes == 0)
    return;
  if (plan.sizes.empty())
    return body(plan.dst, runBytes);
  int64_t innerSize = plan.sizes.back();
  int64_t innerStride = plan.strides.back();
  forEachOuterIndex(plan.sizes, plan.strides, nullptr,
                    [&](int64_t dstOffset, int64_t) {
                      for (int64_t i = 0; i < innerSize; ++i)
                        body(plan.dst + dstOffset + i * innerStride, runBytes);
                    });
}

void copyBytes(void *dst, const void *src, uint64_t bytes,
               ParallelRunner *pool) {
  if (bytes == 0 || dst == src)
    return;
  uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  uintptr_t s = reinterpret_cast<uintptr_t>(src);
  bool overlap = d < s ? s - d < bytes : d - s < bytes;
  if (overlap)
    return (void)std::memmove(dst, src, bytes);
  if (!inParts(bytes, pool))
    return (void)std::memcpy(dst, src, bytes);
  CopyInParts copy{static_cast<char *>(dst), static_cast<const char *>(src),
                   bytes};
  pool->runParallel(partCount(bytes), &CopyInParts::run, &copy);
}

void fillElements(void *dst, uint64_t value, int64_t elementSizeBytes,
                  uint64_t count, ParallelRunner *pool) {
  if (count == 0)
    return;
  const uint64_t bytes = count * static_cast<uint64_t>(elementSizeBytes);
  if (inParts(bytes, pool)) {
    FillInParts fill{static_cast<char *>(dst), value, elementSizeBytes, bytes};
    return pool->runParallel(partCount(bytes), &FillInParts::run, &fill);
  }
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

} // namespace gpu_runner
