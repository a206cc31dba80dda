//===- RuntimeError.h - Errors of the wrapper libraries -------------------===//
//
// How every backend's runtime says that something went wrong. The runtime's
// classes return a `Status`, so that their checks can be unit-tested; only
// the extern "C" layer turns a failed Status into a fatal error at the op's
// location, in the one format the whole project uses:
//
//   file.mlir:12:5: error: gpu.memcpy: <message>
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_RUNTIMEERROR_H
#define GPU_RUNNER_WRAPPERS_COMMON_RUNTIMEERROR_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpu_runner {

/// Success, or an error message. Plain data instead of exceptions: the runner
/// is built with -fno-exceptions, and an error has to cross the C ABI anyway.
class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;

  /// An error of the op that gets this Status back.
  static Status error(std::string message) {
    Status status;
    status.failed = true;
    status.errorMessage = std::move(message);
    return status;
  }

  /// An error of another op, named by its `loc`: an asynchronous op whose
  /// failure is only noticed when a later op synchronizes with it.
  static Status errorAt(std::string loc, std::string message) {
    Status status = error(std::move(message));
    status.errorLoc = std::move(loc);
    return status;
  }

  bool ok() const { return !failed; }
  const std::string &message() const { return errorMessage; }
  /// Empty unless the error belongs to an op other than the one that got it.
  const std::string &loc() const { return errorLoc; }

private:
  bool failed = false;
  std::string errorMessage;
  std::string errorLoc;
};

/// Returns from the enclosing function if `expr` is a failed Status.
#define GPU_RUNNER_RETURN_IF_ERROR(expr)                                       \
  do {                                                                         \
    ::gpu_runner::Status gpuRunnerStatus_ = (expr);                            \
    if (!gpuRunnerStatus_.ok())                                                \
      return gpuRunnerStatus_;                                                 \
  } while (false)

/// Formats one diagnostic line (without the newline). `loc` is
/// "OPNAME@FILE:LINE:COL", "OPNAME" or null:
///   FILE:LINE:COL: SEVERITY: OPNAME: MESSAGE
///   SEVERITY: OPNAME: MESSAGE
///   SEVERITY: MESSAGE
std::string formatDiagnostic(const char *loc, const char *severity,
                             const std::string &message);

/// Names an op for use inside a message: "gpu.alloc at file.mlir:3:5",
/// "gpu.alloc" when the op has no location, "an unknown op" for a null loc.
std::string describeOp(const char *loc);
inline std::string describeOp(const std::string &loc) {
  return describeOp(loc.c_str());
}

/// The op name part of `loc` ("gpu.memcpy" for "gpu.memcpy@f.mlir:1:2").
std::string opName(const char *loc);

/// "0x7f12345000": how messages print an address.
std::string formatPointer(const void *pointer);

/// Why `pointer` has no device address: it is not in registered memory.
std::string describeUnregisteredPointer(const void *pointer);

/// "1 byte", "16 bytes".
std::string byteCount(uint64_t bytes);

/// Why an allocation of `rank` sizes (`sizes`) of `elementSizeBytes`-byte
/// elements cannot be made: "cannot allocate 4 x -2 elements of 4 bytes:
/// size -2 (dimension 1) is negative", or that the bytes are more than an
/// index (int64_t) can count.
std::string describeBadAllocation(int64_t rank, const int64_t *sizes,
                                  int64_t elementSizeBytes);

/// The leak report at exit: one warning per op whose device memory was never
/// freed, with how many allocations and bytes, rather than one per
/// allocation (a gpu.alloc in a loop leaks as often as the loop runs). The
/// ops come in the order of their oldest leak.
class LeakTally {
public:
  /// One allocation of `bytes` made by the op at `loc`, never freed; oldest
  /// first.
  void add(const std::string &loc, uint64_t bytes);

  struct Line {
    std::string loc;
    std::string message;
  };
  /// "400 bytes of device memory allocated here were never freed", or
  /// "3 allocations made here (1200 bytes of device memory in all) were never
  /// freed", for each op.
  std::vector<Line> lines() const;

private:
  struct PerOp {
    std::string loc;
    uint64_t count = 0;
    uint64_t bytes = 0;
  };
  std::vector<PerOp> ops;
  std::unordered_map<std::string, size_t> indexOfLoc;
};

/// Prints the error at `loc` on stderr, flushes every stdio stream (the JIT'd
/// program prints through stdio) and ends the process with status 1.
/// Uses _Exit: other threads may still be running, so static destructors
/// must not run.
[[noreturn]] void reportFatalError(const char *loc, const std::string &message);
/// The same, with `printedFirst` (whole lines) written to stderr between the
/// program's output and the error: what a GPU printed before the failure it
/// reports (failed device assertions).
[[noreturn]] void reportFatalError(const char *loc, const std::string &message,
                                   const std::string &printedFirst);

/// The same, with another severity than "error" ("error: memcheck", for
/// CheckReports.h).
[[noreturn]] void reportFatalDiagnostic(const char *loc, const char *severity,
                                        const std::string &message,
                                        const std::string &printedFirst = {});

/// Reports a failed `status` of the op at `loc` as a fatal error; does
/// nothing for success.
inline void reportIfError(const Status &status, const char *loc) {
  if (!status.ok())
    reportFatalError(status.loc().empty() ? loc : status.loc().c_str(),
                     status.message());
}

/// Prints a warning at `loc` on stderr (leak reports); the program goes on.
void reportWarning(const char *loc, const std::string &message);

/// Prints a diagnostic of `severity` at `loc` on stderr, after what the
/// program printed so far; the program goes on.
void printDiagnosticAt(const char *loc, const char *severity,
                       const std::string &message);

/// Prints `line` (with its newline) on stderr, after what the program
/// printed so far, without interleaving with another diagnostic.
void printDiagnosticLine(const std::string &line);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_RUNTIMEERROR_H
