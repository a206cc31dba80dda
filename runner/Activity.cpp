//===- Activity.cpp - What a run is doing, for errors that end it ---------===//
//
// See Activity.h. LLVM's fatal-error and out-of-memory handlers report
// through the process's one fatal report (wrappers/common/FatalReport.h),
// from a fixed buffer: the out-of-memory one runs where nothing can be
// allocated, and either may run on any thread.
//
//===----------------------------------------------------------------------===//

#include "runner/Activity.h"

#include "wrappers/common/FatalReport.h"

#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstring>

namespace gpu_runner {

namespace {

std::atomic<const char *> activity{"starting"};

/// Reports "error: <what> while <activity>[: <reason>]" as the run's one
/// error and ends the process with status 1.
[[noreturn]] void reportAndExit(const char *what, const char *reason) {
  claimFatalReportOrWait();
  char message[1024];
  size_t length = 0;
  // One byte is kept for the newline.
  auto append = [&](const char *text) {
    while (*text && length < sizeof(message) - 1)
      message[length++] = *text++;
  };
  append("error: ");
  append(what);
  append(" while ");
  append(getActivity());
  if (reason) {
    append(": ");
    append(reason);
  }
  message[length++] = '\n';
  setFatalReportMessage(message, length);
  flushProgramOutputIfFree();
  finishFatalReport();
}

/// LLVM's fatal errors: what cannot be compiled (instruction selection
/// has no way to lower an operation, say), reported as an error of the run.
void onFatalError(void *, const char *reason, bool) {
  reportAndExit("LLVM cannot go on", reason);
}

void onOutOfMemory(void *, const char *, bool) {
  reportAndExit("out of memory", nullptr);
}

} // namespace

const char kRunningActivity[] = "running the program";

void setActivity(const char *what) { activity.store(what); }

const char *getActivity() { return activity.load(); }

void installFatalErrorHandlers() {
  llvm::install_fatal_error_handler(onFatalError);
  llvm::install_bad_alloc_error_handler(onOutOfMemory);
  // An operator new that fails goes to the handler above too.
  llvm::install_out_of_memory_new_handler();
}

} // namespace gpu_runner
