//===- RunnerError.h - The runner's errors, and the one place they print -===//
//
// Every step of a run returns its errors as llvm::Error, and only
// runGpuRunnerMain (Runner.cpp) prints them, with reportErrors, and turns
// them into the exit status: the shape LLVM's tools have, where library
// code returns errors and the tool's main reports them. An error reads as
// every diagnostic of gpu-runner does, "file:line:col: error: message", or
// "error: message" where it has no location. The backend interface
// (wrappers/Backend.h) returns llvm::Error too; the compiler reports MLIR's
// diagnostics, which it prints itself (an AlreadyReported error here).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_RUNNERERROR_H
#define GPU_RUNNER_RUNNER_RUNNERERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// An error of the run, at a place in the program or its input
/// ("file:line:col": the entry point's location, a byte of the input), or
/// with no location. Several of them may be joined (llvm::joinErrors), for
/// a step that reports each of several mistakes, as comparing results
/// does; each is printed on lines of its own.
class RunnerError : public llvm::ErrorInfo<RunnerError> {
public:
  static char ID;

  RunnerError(std::string location, std::string message)
      : location(std::move(location)), message(std::move(message)) {}

  /// "file:line:col: error: message", or "error: message".
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string location;
  std::string message;
};

/// An error already printed where it was found: the compiler's
/// diagnostics, or those of the parts of --split-input-file, which are
/// printed between the parts' outputs. Only the exit status is left.
class AlreadyReported : public llvm::ErrorInfo<AlreadyReported> {
public:
  static char ID;

  explicit AlreadyReported(int status = 1) : status(status) {}
  int getStatus() const { return status; }

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  int status;
};

/// An error at `location` ("file:line:col"), or without a location where
/// it is empty.
llvm::Error makeErrorAt(const llvm::Twine &location,
                        const llvm::Twine &message);

/// An error without a location: "error: message" once printed.
inline llvm::Error makeError(const llvm::Twine &message) {
  return makeErrorAt("", message);
}

/// Prints each error in `error` on stderr, in order, after whatever the
/// runner printed on stdout, and returns the exit status they mean: 0 for
/// success, else 1 or an AlreadyReported error's status. An error of
/// LLVM's libraries that the runner passes on is printed as
/// "error: " and its message, its parts on lines of their own.
int reportErrors(llvm::Error error);

/// Prints "warning: message" or "note: message" on stderr: what does not
/// stop the run is said when it is found.
void printWarning(const llvm::Twine &message);
void printNote(const llvm::Twine &message);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_RUNNERERROR_H
