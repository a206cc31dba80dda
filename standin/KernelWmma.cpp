//===- KernelWmma.cpp - wmma.mma.sync of a whole warp ---------------------===//
//
// The matrix multiply-accumulate of a warp's wmma fragments (PTX ISA,
// "Warp Level Matrix Multiply-Accumulate Instructions"), once every lane
// has reached it (BlockThreads::warpOp): each fragment's elements read in
// their type (f16, bf16, tf32, s8, u8, f32, f64, s32), multiplied exactly,
// and rounded once to the accumulator's type.
//
//===----------------------------------------------------------------------===//

#include "standin/BlockThreads.h"
#include "standin/KernelRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace gpu_runner {
namespace standin {
namespace {

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  uint32_t out;
  if (exponent == 0x1f) {
    out = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      out = sign;
    } else {
      // Subnormal: normalize.
      int shift = 0;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        ++shift;
      }
      mantissa &= 0x3ff;
      out = sign | (uint32_t(127 - 15 + 1 - shift) << 23) | (mantissa << 13);
    }
  } else {
    out = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &out, sizeof(value));
  return value;
}

uint16_t floatToHalf(float value) {
  // Round to nearest even, as cvt.rn.f16.f32.
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t exponent = (bits >> 23) & 0xff;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 0x1f)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, up to infinity: as it should
  return static_cast<uint16_t>(sign | half);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t out = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &out, sizeof(value));
  return value;
}

unsigned wmmaBytes(uint32_t type) {
  switch (type) {
  case kWmmaF16:
  case kWmmaBF16:
    return 2;
  case kWmmaS8:
  case kWmmaU8:
    return 1;
  case kWmmaF64:
    return 8;
  default:
    return 4;
  }
}

double readElement(const void *fragment, uint32_t type, uint32_t index) {
  const char *at =
      static_cast<const char *>(fragment) + uint64_t(index) * wmmaBytes(type);
  switch (type) {
  case kWmmaF16: {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return halfToFloat(bits);
  }
  case kWmmaBF16: {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return bf16ToFloat(bits);
  }
  case kWmmaS8:
    return static_cast<int8_t>(*at);
  case kWmmaU8:
    return static_cast<uint8_t>(*at);
  case kWmmaS32: {
    int32_t value;
    std::memcpy(&value, at, 4);
    return value;
  }
  case kWmmaF64: {
    double value;
    std::memcpy(&value, at, 8);
    return value;
  }
  case kWmmaTF32: {
    // PTX ISA, wmma with .tf32: the low 13 bits of the mantissa are
    // ignored.
    uint32_t bits;
    std::memcpy(&bits, at, 4);
    bits &= 0xffffe000u;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  default: {
    float value;
    std::memcpy(&value, at, 4);
    return value;
  }
  }
}

void writeElement(void *fragment, uint32_t type, uint32_t index, double value,
                  int64_t integer) {
  char *at = static_cast<char *>(fragment) + uint64_t(index) * wmmaBytes(type);
  switch (type) {
  case kWmmaF16: {
    uint16_t bits = floatToHalf(static_cast<float>(value));
    std::memcpy(at, &bits, 2);
    return;
  }
  case kWmmaS32: {
    int32_t narrow = static_cast<int32_t>(integer);
    std::memcpy(at, &narrow, 4);
    return;
  }
  case kWmmaF64:
    std::memcpy(at, &value, 8);
    return;
  default: {
    float narrow = static_cast<float>(value);
    std::memcpy(at, &narrow, 4);
    return;
  }
  }
}

} // namespace

void runWmma(ThreadSlot *const lanes[kWarpSize]) {
  // Each lane holds `count` elements of a fragment; element e of lane l is
  // element (l * count + e) mod (rows * cols) of the matrix, in row-major
  // order, whatever layout the load read it in (the PTX ISA leaves the
  // distribution of a fragment over the lanes unspecified; loads, stores
  // and mma here agree on this one).
  const WmmaDescriptor &d = *lanes[0]->wmma;
  auto gather = [&](int which, uint32_t type, uint32_t count, uint32_t rows,
                    uint32_t cols, std::vector<double> &out) {
    uint32_t elements = rows * cols;
    out.assign(elements, 0.0);
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      for (uint32_t e = 0; e < count; ++e)
        out[(lane * count + e) % elements] =
            readElement(lanes[lane]->fragments[which], type, e);
  };
  std::vector<double> a, b, c;
  gather(0, d.aType, d.aCount, d.m, d.k, a);
  gather(1, d.bType, d.bCount, d.k, d.n, b);
  gather(2, d.cType, d.cCount, d.m, d.n, c);
  bool integer = d.dType == kWmmaS32;
  std::vector<double> result(d.m * d.n);
  std::vector<int64_t> integers(d.m * d.n);
  for (uint32_t i = 0; i < d.m; ++i)
    for (uint32_t j = 0; j < d.n; ++j) {
      if (integer) {
        int64_t sum = static_cast<int64_t>(c[i * d.n + j]);
        for (uint32_t k = 0; k < d.k; ++k)
          sum += static_cast<int64_t>(a[i * d.k + k]) *
                 static_cast<int64_t>(b[k * d.n + j]);
        // Without .satfinite the sum wraps as 32-bit integers do; with it,
        // it is clamped to the s32 range.
        if (d.saturate)
          sum = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, sum));
        integers[i * d.n + j] =
            static_cast<int32_t>(static_cast<uint32_t>(sum));
        continue;
      }
      // Products of f16, bf16 and tf32 values are exact in double; the sum
      // is rounded once to the accumulator's type.
      double sum = c[i * d.n + j];
      for (uint32_t k = 0; k < d.k; ++k)
        sum += a[i * d.k + k] * b[k * d.n + j];
      result[i * d.n + j] = d.dType == kWmmaF64
                                ? sum
                                : static_cast<double>(static_cast<float>(sum));
    }
  uint32_t elements = d.m * d.n;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    for (uint32_t e = 0; e < d.dCount; ++e) {
      uint32_t index = (lane * d.dCount + e) % elements;
      writeElement(lanes[lane]->fragments[3], d.dType, e, result[index],
                   integers[index]);
    }
}

} // namespace standin
} // namespace gpu_runner
