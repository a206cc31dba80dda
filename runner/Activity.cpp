//===- Activity.cpp - What a run is doing, for errors that end it ---------===//
//
// See Activity.h. LLVM's handlers are replaced with ones that write with
// write(2) from fixed strings: the out-of-memory one runs where nothing can
// be allocated, and either may run on any thread.
//
//===----------------------------------------------------------------------===//

#include "runner/Activity.h"

#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace gpu_runner {

namespace {

std::atomic<const char *> activity{"starting"};

/// LLVM's fatal errors: what cannot be compiled (instruction selection
/// has no way to lower an operation, say), reported as an error of the run.
void onFatalError(void *, const char *reason, bool) {
  flushStdoutIfUnlocked();
  writeToStderr("error: LLVM cannot go on while ");
  writeToStderr(getActivity());
  writeToStderr(": ");
  writeToStderr(reason);
  writeToStderr("\n");
  _exit(1);
}

void onOutOfMemory(void *, const char *, bool) {
  writeToStderr("error: out of memory while ");
  writeToStderr(getActivity());
  writeToStderr("\n");
  _exit(1);
}

} // namespace

const char kRunningActivity[] = "running the program";

void writeToStderr(const char *text) {
  size_t length = std::strlen(text);
  while (length > 0) {
    ssize_t written = write(STDERR_FILENO, text, length);
    if (written <= 0)
      return;
    text += written;
    length -= static_cast<size_t>(written);
  }
}

void flushStdoutIfUnlocked() {
  if (ftrylockfile(stdout) != 0)
    return;
  fflush_unlocked(stdout);
  funlockfile(stdout);
}

void setActivity(const char *what) { activity.store(what); }

const char *getActivity() { return activity.load(); }

void installFatalErrorHandlers() {
  llvm::install_fatal_error_handler(onFatalError);
  llvm::install_bad_alloc_error_handler(onOutOfMemory);
  // An operator new that fails goes to the handler above too.
  llvm::install_out_of_memory_new_handler();
}

} // namespace gpu_runner
