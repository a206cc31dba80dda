//===- FatalReport.cpp - The one error that ends the process -------------===//
//
// See FatalReport.h. The state is a few atomics and a fixed buffer, so that
// a signal handler can use all of it.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/FatalReport.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

#include <signal.h> // NOLINT(modernize-deprecated-headers): POSIX's sigaction
#include <sys/syscall.h>
#include <unistd.h>

namespace gpu_runner {

namespace {

/// Volatile, so that its stores stay around the C library calls (memcpy)
/// the scope covers.
thread_local const char *volatile runningOp = nullptr;

/// The kernel's id of the thread that reports; 0 while nobody does.
std::atomic<long> reportingThread{0};

/// The report's text, and whether it was printed.
char reportText[2048];
std::atomic<size_t> reportLength{0};
std::atomic<bool> reportPrinted{false};

/// How long a report may take to flush the program's output before its
/// text is printed anyway.
constexpr unsigned kDeadlineSeconds = 5;

long currentThreadId() { return syscall(SYS_gettid); }

std::atomic<void (*)()> exitHook{nullptr};

void onDeadline(int) { finishFatalReport(); }

} // namespace

FatalReportClaim beginFatalReport() {
  long self = currentThreadId();
  long expected = 0;
  if (reportingThread.compare_exchange_strong(expected, self))
    return FatalReportClaim::Claimed;
  return expected == self ? FatalReportClaim::Again
                          : FatalReportClaim::OtherThread;
}

void waitForFatalReport() {
  // The reporting thread ends the process within the deadline.
  while (true)
    pause();
}

void claimFatalReportOrWait() {
  switch (beginFatalReport()) {
  case FatalReportClaim::Claimed:
    return;
  case FatalReportClaim::OtherThread:
    // One error per run: the first one's.
    waitForFatalReport();
  case FatalReportClaim::Again:
    finishFatalReport();
  }
}

void setFatalReportMessage(const char *message, size_t length) {
  length = std::min(length, sizeof(reportText));
  std::memcpy(reportText, message, length);
  reportLength.store(length);
  struct sigaction action = {};
  action.sa_handler = &onDeadline;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  alarm(kDeadlineSeconds);
}

void flushProgramOutputIfFree() {
  // glibc's stdio locks are recursive: a thread that crashed inside stdio
  // gets the lock back here, and a fault while flushing then ends the report
  // through the deadline or the fault handler's second entry.
  if (ftrylockfile(stdout) != 0)
    return;
  fflush_unlocked(stdout);
  funlockfile(stdout);
}

RunningOpScope::RunningOpScope(const char *loc) : saved(runningOp) {
  runningOp = loc && *loc ? loc : nullptr;
}

RunningOpScope::~RunningOpScope() { runningOp = saved; }

const char *runningOpLoc() { return runningOp; }

void writeToStderr(const char *text, size_t length) {
  size_t done = 0;
  while (done < length) {
    ssize_t written = write(STDERR_FILENO, text + done, length - done);
    if (written <= 0)
      return;
    done += static_cast<size_t>(written);
  }
}

void printFatalReportMessage() {
  if (!reportPrinted.exchange(true))
    writeToStderr(reportText, reportLength.load());
}

void setFatalReportExitHook(void (*hook)()) { exitHook.store(hook); }

void finishFatalReport() {
  printFatalReportMessage();
  // Once: the deadline, or a fault in the hook, ends the process here again.
  if (void (*hook)() = exitHook.exchange(nullptr))
    hook();
  _Exit(1);
}

} // namespace gpu_runner
