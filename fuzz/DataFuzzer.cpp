//===- DataFuzzer.cpp - libFuzzer target over the value grammar and .npy --===//
//
// Feeds each input to what reads data given on the command line
// (runner/DataValue.h, runner/NumpyFile.h): an input whose first byte is
// even is a value in the grammar of --input (files are not read), an odd
// one the bytes of a NumPy file. What parses is then printed
// (DataPrinter.h), compared with itself (DataComparison.h), and, for a
// NumPy file, written and read back, which must give the same value.
//
// Any error is a correct outcome; a crash, a sanitizer report, a hang or a
// round trip that changes the value is a bug. Built with
// -DGPU_RUNNER_BUILD_FUZZER=ON; run by scripts/fuzz --data.
//
//===----------------------------------------------------------------------===//

#include "runner/DataComparison.h"
#include "runner/DataPrinter.h"
#include "runner/DataValue.h"
#include "runner/NumpyFile.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace gpu_runner;

namespace {

/// Values of at most this many bytes: a splat of a large shape is refused
/// rather than filling the fuzzer's memory.
constexpr uint64_t kMaxFuzzBytes = 1 << 20;

void check(bool condition, const char *what) {
  if (!condition) {
    llvm::errs() << "data fuzzer: " << what << "\n";
    std::abort();
  }
}

void exercise(const DataValue &value) {
  if (!value.type)
    return;
  llvm::raw_null_ostream null;
  printData(null, value);
  Tolerance tolerance;
  tolerance.nanEqual = true;
  llvm::Expected<Comparison> same = compareData(value, value, tolerance);
  check(static_cast<bool>(same), "a value does not compare with itself");
  check(same->shapeMismatch.empty() && same->mismatches == 0,
        "a value differs from itself");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  llvm::StringRef bytes(reinterpret_cast<const char *>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    llvm::Expected<DataValue> value =
        parseDataValue(bytes, kMaxFuzzBytes, /*readFiles=*/false);
    if (!value) {
      llvm::consumeError(value.takeError());
      return 0;
    }
    exercise(*value);
    return 0;
  }
  llvm::Expected<DataValue> value = parseNpy("fuzz.npy", bytes);
  if (!value) {
    llvm::consumeError(value.takeError());
    return 0;
  }
  exercise(*value);
  std::string written = writeNpy(*value);
  llvm::Expected<DataValue> again = parseNpy("written.npy", written);
  check(static_cast<bool>(again), "a written NumPy file does not read back");
  check(again->type == value->type && again->shape == value->shape &&
            again->data.size() == value->data.size() &&
            (value->data.size() == 0 ||
             std::memcmp(again->data.data(), value->data.data(),
                         value->data.size()) == 0),
        "a NumPy file read back differs from what was written");
  return 0;
}
