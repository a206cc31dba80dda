//===- EntryData.h - The entry point called with data ---------------------===//
//
// --input values matched to the entry point's signature (EntrySignature.h)
// and passed to it through the packed function the compiler generates; its
// results read back, printed, written (--output) and compared
// (--expected-output); and --launch's flags, parsed once. Everything is
// checked before the program runs, so that a wrong input is an error at the
// entry point, never a run on wrong data.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_ENTRYDATA_H
#define GPU_RUNNER_RUNNER_ENTRYDATA_H

#include "runner/DataValue.h"
#include "runner/Options.h"
#include "runner/compiler/Compiler.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpu_runner {

/// What the data flags say, parsed once, before compiling.
struct RunData {
  /// The values of --input and --expected-output.
  std::vector<DataValue> inputs;
  std::vector<DataValue> expected;
  /// --launch's kernel with --grid, --block and --dynamic-shared-memory;
  /// none without --launch.
  std::optional<LaunchTarget> launch;
};

/// Checks the data flags against each other (--launch's with --grid and
/// --block, --entry-point-result with none of them, --output's forms, the
/// tolerances) and parses them; the first mistake is the error, a value
/// that does not parse with its column.
llvm::Expected<RunData> parseDataFlags(const RunnerOptions &options);

/// --launch and its grid, block and shared memory, for the cache key.
std::string describeLaunch(const std::optional<LaunchTarget> &target);

/// One call of the entry point with data: the arguments, allocated and
/// filled, and room for the results.
class EntryCall {
public:
  /// Matches `data`'s inputs to `signature` and checks the number of
  /// --output and --expected-output values; the first mismatch is an error
  /// at the entry point's location.
  static llvm::Expected<std::unique_ptr<EntryCall>>
  prepare(const EntrySignature &signature, RunData &data,
          const RunnerOptions &options);

  /// Calls kPackedEntryName at `packed`.
  void call(void *packed);

  /// Reads the results of the last call; memrefs the program allocated are
  /// then given back to its heap with `programFree`. Each result that
  /// cannot be read is an error.
  llvm::Expected<std::vector<DataValue>>
  takeResults(void (*programFree)(void *));

private:
  explicit EntryCall(const EntrySignature &signature) : signature(signature) {}

  /// Checks the number of --input, --output and --expected-output values.
  llvm::Error checkCounts(const RunData &data,
                          const RunnerOptions &options) const;
  /// Matches `value` to parameter `i`, `param`, and adds its slot.
  llvm::Error addArgument(size_t i, const EntryType &param, DataValue &value);
  /// --launch's results: copies of the memref arguments.
  llvm::Expected<std::vector<DataValue>> copyMemRefArguments() const;
  /// Fails when result `j`'s descriptor, in `slot`, describes elements
  /// outside the allocation its allocated pointer begins.
  llvm::Error checkExtent(size_t j, llvm::ArrayRef<int64_t> slot) const;
  /// Memref result `j`, whose descriptor is `slot`.
  llvm::Expected<DataValue> readMemRef(size_t j,
                                       llvm::ArrayRef<int64_t> slot) const;

  const EntrySignature &signature;
  std::vector<DataValue> args;
  /// A memref descriptor (3 + 2 x rank words) or a scalar (one word).
  std::vector<std::vector<int64_t>> argSlots, resultSlots;
  std::vector<void *> pointers;
};

/// Prints the results, or writes them where --output says, then compares
/// them with --expected-output; an error for a file that cannot be
/// written, and one for each result that differs.
llvm::Error reportResults(const EntrySignature &signature,
                          const std::vector<DataValue> &results,
                          const RunData &data, const RunnerOptions &options);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_ENTRYDATA_H
