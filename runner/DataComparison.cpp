//===- DataComparison.cpp - Results compared with expected values ---------===//

#include "runner/DataComparison.h"

#include "runner/DataPrinter.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <cstdio>

using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;

namespace gpu_runner {

namespace {

/// "[1, 2]": the index of element `flat` of a value of `shape`, in C order.
std::string formatIndex(ArrayRef<int64_t> shape, uint64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = shape[i] ? int64_t(flat % uint64_t(shape[i])) : 0;
    flat = shape[i] ? flat / uint64_t(shape[i]) : 0;
  }
  std::string text = "[";
  for (auto [i, value] : llvm::enumerate(index))
    text += (i ? ", " : "") + std::to_string(value);
  return text + "]";
}

/// Index and i64 are the same 64-bit integers in memory.
bool sameType(ElementType a, ElementType b) {
  auto canonical = [](ElementType t) {
    return t == ElementType::Index ? ElementType::I64 : t;
  };
  return canonical(a) == canonical(b);
}

} // namespace

Expected<Comparison> compareData(const DataValue &got, const DataValue &want,
                                 const Tolerance &tolerance) {
  Comparison result;
  ElementType type = *got.type;
  unsigned size = getElementSize(type);
  DataValue converted;
  const DataValue *expected = &want;
  if (!want.type) {
    if (got.shaped && !got.shape.empty()) {
      result.shapeMismatch = "expected " + want.describe() + ", got " +
                             formatShapedType(got.shape, type);
      return result;
    }
    converted.type = type;
    if (!converted.data.allocate(size))
      return llvm::createStringError("cannot allocate an element");
    if (Error error = convertLiteral(want.literal, type, converted.data.data()))
      return std::move(error);
    expected = &converted;
  } else if (!sameType(*want.type, type) || want.shape != got.shape) {
    result.shapeMismatch =
        "expected " + want.describe() + ", got " +
        (got.shaped ? formatShapedType(got.shape, type)
                    : std::string("the scalar ") + getElementTypeName(type) +
                          "=" + formatElement(type, got.data.data()));
    return result;
  }
  result.elements = got.getNumElements();
  for (uint64_t i = 0; i < result.elements; ++i) {
    const char *a = got.data.data() + i * size;
    const char *b = expected->data.data() + i * size;
    bool equal;
    std::string difference;
    if (isFloatType(type)) {
      double x = readFloat(type, a), y = readFloat(type, b);
      if (std::isnan(x) || std::isnan(y))
        equal = std::isnan(x) && std::isnan(y) && tolerance.nanEqual;
      else if (std::isinf(x) || std::isinf(y))
        // As numpy.allclose: an infinity matches only the same infinity,
        // whatever the tolerance (inf <= atol + rtol * inf would let any
        // value match an expected infinity).
        equal = x == y;
      else
        equal = x == y || std::fabs(x - y) <=
                              tolerance.atol + tolerance.rtol * std::fabs(y);
      char text[64];
      std::snprintf(text, sizeof(text), "%g", x - y);
      difference = text;
    } else {
      int64_t x = readInteger(type, a), y = readInteger(type, b);
      equal = x == y;
      __int128 wide = (__int128)x - y;
      char text[64];
      if (wide > INT64_MAX || wide < INT64_MIN)
        std::snprintf(text, sizeof(text), "%g", double(wide));
      else
        std::snprintf(text, sizeof(text), "%lld", (long long)wide);
      difference = text;
    }
    if (equal)
      continue;
    ++result.mismatches;
    if (result.firstMismatches.size() < kMismatchesListed)
      result.firstMismatches.push_back(
          (got.shape.empty() ? std::string()
                             : formatIndex(got.shape, i) + ": ") +
          "got " + formatElement(type, a) + ", expected " +
          formatElement(type, b) + " (difference " + difference + ")");
  }
  return result;
}

} // namespace gpu_runner
