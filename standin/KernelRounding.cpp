//===- KernelRounding.cpp - PTX rounding modes, on the host ---------------===//
//
// The arithmetic kernels do in a directed rounding mode (.rz, .rm, .rp):
// one operation at a time, with the host's rounding mode set around it.
// This file is compiled with -frounding-math for that reason.
//
//===----------------------------------------------------------------------===//

#include "standin/KernelAbi.h"
#include "standin/RuntimeFunctions.h"

#include <cfenv>
#include <cmath>

namespace gpu_runner {
namespace standin {
namespace {

int toFenvMode(uint32_t mode) {
  switch (mode) {
  case kRoundRz:
    return FE_TOWARDZERO;
  case kRoundRm:
    return FE_DOWNWARD;
  case kRoundRp:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

/// Runs `compute` in the rounding mode of a PTX modifier (PTX ISA,
/// "Rounding Modifiers": .rn nearest even, .rz towards zero, .rm towards
/// minus infinity, .rp towards plus infinity).
/// Calls `compute` out of line: the compiler may move arithmetic across
/// fesetround (-frounding-math does not stop it), but not into a call.
template <typename Compute>
__attribute__((noinline)) auto computeOutOfLine(Compute compute) {
  return compute();
}

template <typename Compute> auto inMode(uint32_t mode, Compute compute) {
  int saved = std::fegetround();
  std::fesetround(toFenvMode(mode));
  auto result = computeOutOfLine(compute);
  std::fesetround(saved);
  return result;
}

/// One PTX rounded operation (KernelAbi.h's kRounded*) on `a`, `b`, `c`,
/// in the rounding mode `mode`; the operands are volatile so that the
/// operation happens inside the mode, not folded outside it.
template <typename Float>
Float roundedOp(uint32_t op, uint32_t mode, Float a, Float b, Float c) {
  return inMode(mode, [&]() -> Float {
    volatile Float x = a, y = b, z = c;
    switch (op) {
    case kRoundedAdd:
      return x + y;
    case kRoundedMul:
      return x * y;
    case kRoundedDiv:
      return x / y;
    case kRoundedFma:
      return std::fma(x, y, z);
    case kRoundedSqrt:
      return std::sqrt(x);
    default:
      return Float(1) / x;
    }
  });
}

} // namespace

float rtRoundF32(uint32_t op, uint32_t mode, float a, float b, float c) {
  return roundedOp<float>(op, mode, a, b, c);
}

double rtRoundF64(uint32_t op, uint32_t mode, double a, double b, double c) {
  return roundedOp<double>(op, mode, a, b, c);
}

float rtD2F(uint32_t mode, double value) {
  return inMode(mode, [&]() -> float {
    volatile double x = value;
    return static_cast<float>(x);
  });
}

float rtIToF32(uint32_t isUnsigned, uint32_t mode, uint64_t value) {
  return inMode(mode, [&]() -> float {
    volatile uint64_t x = value;
    return isUnsigned ? static_cast<float>(x)
                      : static_cast<float>(static_cast<int64_t>(x));
  });
}

double rtIToF64(uint32_t isUnsigned, uint32_t mode, uint64_t value) {
  return inMode(mode, [&]() -> double {
    volatile uint64_t x = value;
    return isUnsigned ? static_cast<double>(x)
                      : static_cast<double>(static_cast<int64_t>(x));
  });
}

} // namespace standin
} // namespace gpu_runner
