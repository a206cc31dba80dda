//===- Timeout.cpp - --timeout: stop a run that takes too long ------------===//
//
// A timer signal rather than a watchdog thread: it needs no thread that the
// exit paths would have to stop, and it fires whatever the program's threads
// do. The handler uses write and _Exit, plus one fflush of stdout, when no
// other thread holds it, so that the program's output comes before the
// error, as with every other error.
// It says what the run was doing (Activity.h): a run may time out before
// the program starts, reading a pipe that never ends or compiling.
//
//===----------------------------------------------------------------------===//

#include "runner/Timeout.h"

#include "runner/Activity.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace gpu_runner {

namespace {

/// Made before the timer starts, so that the handler does not allocate:
/// "error: timed out after N s (--timeout=N)".
char timeoutMessage[128];

void onTimeout(int) {
  flushStdoutIfUnlocked();
  writeToStderr(timeoutMessage);
  const char *activity = getActivity();
  if (std::strcmp(activity, kRunningActivity) == 0) {
    writeToStderr(": the program was still running\n");
  } else {
    writeToStderr(" while ");
    writeToStderr(activity);
    writeToStderr("\n");
  }
  _Exit(1);
}

} // namespace

void startTimeout(unsigned seconds) {
  std::snprintf(timeoutMessage, sizeof(timeoutMessage),
                "error: timed out after %u s (--timeout=%u)", seconds, seconds);
  struct sigaction action = {};
  action.sa_handler = &onTimeout;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  alarm(seconds);
}

} // namespace gpu_runner
