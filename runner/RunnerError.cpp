//===- RunnerError.cpp - The runner's errors, and the one place they print ===//

#include "runner/RunnerError.h"

#include "llvm/Support/raw_ostream.h"

namespace gpu_runner {

char RunnerError::ID = 0;
char AlreadyReported::ID = 0;

void RunnerError::log(llvm::raw_ostream &os) const {
  if (!location.empty())
    os << location << ": ";
  os << "error: " << message;
}

void AlreadyReported::log(llvm::raw_ostream &os) const {
  os << "an error already reported (exit status " << status << ")";
}

llvm::Error makeErrorAt(const llvm::Twine &location,
                        const llvm::Twine &message) {
  return llvm::make_error<RunnerError>(location.str(), message.str());
}

int reportErrors(llvm::Error error) {
  int status = 0;
  // llvm::errs() is tied to llvm::outs(): what is left of the output the
  // runner printed goes first.
  llvm::raw_ostream &os = llvm::errs();
  llvm::Error rest = llvm::handleErrors(
      std::move(error),
      [&](const AlreadyReported &reported) {
        if (status == 0 || status == 1)
          status = reported.getStatus();
      },
      [&](const RunnerError &runnerError) {
        runnerError.log(os);
        os << "\n";
        if (status == 0)
          status = 1;
      });
  if (rest) {
    os << "error: " << llvm::toString(std::move(rest)) << "\n";
    if (status == 0)
      status = 1;
  }
  return status;
}

void printWarning(const llvm::Twine &message) {
  llvm::errs() << "warning: " << message << "\n";
}

void printNote(const llvm::Twine &message) {
  llvm::errs() << "note: " << message << "\n";
}

} // namespace gpu_runner
