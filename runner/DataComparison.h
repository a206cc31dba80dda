//===- DataComparison.h - Results compared with expected values -----------===//
//
// --expected-output: a result compared with its expected value, integers
// exactly and floats within an absolute and a relative tolerance. What
// differs is described for the error the runner reports; the runner
// decides what a mismatch means.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_DATACOMPARISON_H
#define GPU_RUNNER_RUNNER_DATACOMPARISON_H

#include "runner/DataValue.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

struct Tolerance {
  double atol = 1e-8;
  double rtol = 1e-5;
  bool nanEqual = false;
};

/// How a result compared with its expected value.
struct Comparison {
  /// Empty when shape and type agree, else why they do not.
  std::string shapeMismatch;
  uint64_t elements = 0;
  uint64_t mismatches = 0;
  /// The first mismatches: "[1, 2]: got 5, expected 6 (difference 1)".
  std::vector<std::string> firstMismatches;
};

/// The most mismatching elements a comparison lists.
inline constexpr unsigned kMismatchesListed = 10;

/// Compares `got`, which is typed, with `want`: integers exactly; floats
/// pass when |got - want| <= atol + rtol * |want|, or when both are the
/// same infinity, or both NaN with nanEqual. An untyped scalar `want` is
/// converted to `got`'s type first (an error where it does not convert).
llvm::Expected<Comparison> compareData(const DataValue &got,
                                       const DataValue &want,
                                       const Tolerance &tolerance);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_DATACOMPARISON_H
