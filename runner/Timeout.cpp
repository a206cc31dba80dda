//===- Timeout.cpp - --timeout: stop a run that takes too long ------------===//
//
// A timer signal rather than a watchdog thread: it needs no thread that the
// exit paths would have to stop, and it fires whatever the program's threads
// do. Like every other error it is the process's one report
// (wrappers/common/FatalReport.h): the program's output comes first when no
// other thread holds stdout, and a timeout while another thread reports an
// error waits for that one.
// It says what the run was doing (Activity.h): a run may time out before
// the program starts, reading a pipe that never ends or compiling.
//
//===----------------------------------------------------------------------===//

#include "runner/Timeout.h"

#include "runner/Activity.h"
#include "wrappers/common/FatalReport.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace gpu_runner {

namespace {

/// Made before the timer starts, so that the handler does not allocate:
/// "[LOCATION: ]error: timed out after N s (--timeout=N)".
char timeoutMessage[4096];

/// Appends `text` to `buffer`, which holds `length` of its `size` bytes.
void append(char *buffer, size_t size, size_t &length, const char *text) {
  while (*text && length < size)
    buffer[length++] = *text++;
}

void onTimeout(int) {
  claimFatalReportOrWait();
  char message[sizeof(timeoutMessage) + 256];
  size_t length = 0;
  // One byte is kept for the newline.
  size_t size = sizeof(message) - 1;
  append(message, size, length, timeoutMessage);
  const char *activity = getActivity();
  if (std::strcmp(activity, kRunningActivity) == 0) {
    append(message, size, length, ": the program was still running");
  } else {
    append(message, size, length, " while ");
    append(message, size, length, activity);
  }
  message[length++] = '\n';
  setFatalReportMessage(message, length);
  flushProgramOutputIfFree();
  finishFatalReport();
}

} // namespace

void startTimeout(unsigned seconds, llvm::StringRef location) {
  // A location too long for the message is left out.
  int length = static_cast<int>(location.size());
  if (location.size() > sizeof(timeoutMessage) - 128)
    length = 0;
  std::snprintf(timeoutMessage, sizeof(timeoutMessage),
                "%.*s%serror: timed out after %u s (--timeout=%u)", length,
                location.data(), length ? ": " : "", seconds, seconds);
  struct sigaction action = {};
  action.sa_handler = &onTimeout;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  alarm(seconds);
}

void stopTimeout() { alarm(0); }

} // namespace gpu_runner
