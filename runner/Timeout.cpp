//===- Timeout.cpp - --timeout: stop a run that takes too long ------------===//
//
// A timer signal rather than a watchdog thread: it needs no thread that the
// exit paths would have to stop, and it fires whatever the program's threads
// do. The handler uses write and _Exit, plus one fflush of stdout so that
// the program's output comes before the error, as with every other error.
//
//===----------------------------------------------------------------------===//

#include "runner/Timeout.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <unistd.h>

namespace gpu_runner {

namespace {

/// Made before the timer starts, so that the handler does not allocate.
char timeoutMessage[128];
size_t timeoutMessageLength = 0;

void onTimeout(int) {
  std::fflush(stdout);
  size_t done = 0;
  while (done < timeoutMessageLength) {
    ssize_t written = write(STDERR_FILENO, timeoutMessage + done,
                            timeoutMessageLength - done);
    if (written <= 0)
      break;
    done += static_cast<size_t>(written);
  }
  _Exit(1);
}

} // namespace

void startTimeout(unsigned seconds) {
  std::string message = "error: timed out after " + std::to_string(seconds) +
                        " s (--timeout=" + std::to_string(seconds) +
                        "): the program was still running\n";
  timeoutMessageLength = std::min(message.size(), sizeof(timeoutMessage) - 1);
  std::memcpy(timeoutMessage, message.data(), timeoutMessageLength);
  struct sigaction action = {};
  action.sa_handler = &onTimeout;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  alarm(seconds);
}

} // namespace gpu_runner
