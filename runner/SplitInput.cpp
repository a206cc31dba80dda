//===- SplitInput.cpp - --split-input-file: each part run on its own ------===//
//
// Many small programs in one file, each compiled and run on its own. The
// input is cut where mlir-opt cuts it (mlir::splitAndProcessBuffer, taken
// from MLIR's support archive: it needs only LLVM's support library, so the
// runner still loads no MLIR library), and each part runs in a child
// process of its own, one after the other, so that a part that crashes,
// times out or leaves the JIT or the runtime in a bad state cannot harm the
// next. The child goes on with the ordinary steps of a run (Runner.cpp),
// its part as the input; this process only waits, separates the outputs
// and adds up the statuses. A signal that asks it to stop (SIGINT,
// SIGTERM, SIGHUP) is passed on to the part's child, which is waited for,
// and then ends this process as it would have without the parts.
//
//===----------------------------------------------------------------------===//

#include "runner/SplitInput.h"

#include "runner/ProgramOutput.h"
#include "runner/RunnerError.h"

#include "mlir/Support/ToolUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using llvm::StringRef;
using llvm::Twine;

namespace gpu_runner {

namespace {

/// The signals that ask the runner to stop, passed on to the running part.
constexpr int kStopSignals[] = {SIGHUP, SIGINT, SIGTERM};

/// The child running a part, 0 while none is; and the stop signal received,
/// 0 while none is. Both are read by the signal handler.
volatile sig_atomic_t runningChild = 0;
volatile sig_atomic_t stopSignal = 0;

void onStopSignal(int signal) {
  if (stopSignal == 0)
    stopSignal = signal;
  if (runningChild != 0)
    kill(static_cast<pid_t>(runningChild), signal);
}

/// While it lives, a stop signal is passed on to `runningChild` and
/// recorded in `stopSignal`, rather than ending this process at once.
class StopSignalForwarding {
public:
  StopSignalForwarding() {
    struct sigaction action = {};
    action.sa_handler = &onStopSignal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int signal : kStopSignals)
      sigaddset(&action.sa_mask, signal);
    for (auto [index, signal] : llvm::enumerate(kStopSignals)) {
      sigaction(signal, &action, &previous[index]);
      // A signal ignored before (nohup, a shell's background job) stays so.
      if (previous[index].sa_handler == SIG_IGN)
        sigaction(signal, &previous[index], nullptr);
    }
  }
  StopSignalForwarding(const StopSignalForwarding &) = delete;
  StopSignalForwarding &operator=(const StopSignalForwarding &) = delete;
  ~StopSignalForwarding() { restore(); }

  /// The handlers from before, as a child starts with them.
  void restore() {
    for (auto [index, signal] : llvm::enumerate(kStopSignals))
      sigaction(signal, &previous[index], nullptr);
  }

private:
  struct sigaction previous[std::size(kStopSignals)] = {};
};

/// Blocks the stop signals while it lives, so that none comes between the
/// start of a child and `runningChild` naming it.
class StopSignalsBlocked {
public:
  StopSignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (int signal : kStopSignals)
      sigaddset(&set, signal);
    sigprocmask(SIG_BLOCK, &set, &previous);
  }
  StopSignalsBlocked(const StopSignalsBlocked &) = delete;
  StopSignalsBlocked &operator=(const StopSignalsBlocked &) = delete;
  ~StopSignalsBlocked() { sigprocmask(SIG_SETMASK, &previous, nullptr); }

private:
  sigset_t previous;
};

/// Ends this process by the stop signal it received, with the status a
/// shell reports for it (128 + the signal's number).
[[noreturn]] void endByStopSignal(StopSignalForwarding &forwarding) {
  int signal = stopSignal;
  forwarding.restore();
  std::signal(signal, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(signal);
  std::_Exit(128 + signal);
}

/// The parts of `input`, as views of its text. Lines that look almost like
/// a marker get mlir-opt's warning.
std::vector<StringRef> splitIntoParts(const llvm::MemoryBuffer &input) {
  std::vector<StringRef> parts;
  // The splitter takes ownership of what it is given: a view of the input.
  (void)mlir::splitAndProcessBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      [&](std::unique_ptr<llvm::MemoryBuffer> part,
          const llvm::MemoryBufferRef &, llvm::raw_ostream &) {
        parts.push_back(part->getBuffer());
        return llvm::success();
      },
      llvm::nulls());
  return parts;
}

/// The text of `input` before `part`, which is a view of it.
StringRef getTextBefore(const llvm::MemoryBuffer &input, StringRef part) {
  const char *start = input.getBufferStart();
  if (part.data() < start || part.data() + part.size() > input.getBufferEnd())
    llvm::report_fatal_error("--split-input-file: a part of the input is not "
                             "in the input's text");
  return input.getBuffer().take_front(part.data() - start);
}

/// The part as the whole input of a run: the input's name, and blanks
/// (newlines kept) for the text before the part, so that diagnostics, the
/// locations compiled into the program and its compile cache key have the
/// part's lines and columns in the file.
std::unique_ptr<llvm::MemoryBuffer>
makePartInput(const llvm::MemoryBuffer &input, StringRef part) {
  StringRef before = getTextBefore(input, part);
  // The part begins on its marker's line, after the marker.
  size_t lineStart = before.rfind('\n') + 1;
  std::string text(before.count('\n'), '\n');
  text.append(before.size() - lineStart, ' ');
  text += part;
  return llvm::MemoryBuffer::getMemBufferCopy(text,
                                              input.getBufferIdentifier());
}

/// The line a part's text starts on: its first line that is not blank, as
/// the compiler's diagnostics about a whole program say.
size_t getFirstLine(const llvm::MemoryBuffer &input, StringRef part) {
  size_t start = std::min(part.find_first_not_of(" \t\r\n"), part.size());
  return getTextBefore(input, part).count('\n') +
         part.take_front(start).count('\n') + 1;
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
runPartsInChildren(const llvm::MemoryBuffer &input) {
  if (input.getBuffer().starts_with("ML\xefR"))
    return makeError("--split-input-file cuts MLIR text at its '// -----' "
                     "lines, and '" +
                     input.getBufferIdentifier() + "' is MLIR bytecode");
  bool anyFailed = false;
  // A status a part ended with other than 0 and 1: not the runner's own,
  // but a sanitizer's or a driver stand-in's, which are passed on.
  int otherStatus = 0;
  std::vector<StringRef> parts = splitIntoParts(input);
  StopSignalForwarding forwarding;
  for (auto [index, part] : llvm::enumerate(parts)) {
    if (stopSignal != 0)
      endByStopSignal(forwarding);
    if (index != 0)
      llvm::outs() << mlir::kDefaultSplitMarker << "\n";
    // Nothing may be left in a buffer when the child copies it.
    if (llvm::Error error = checkProgramOutput())
      return std::move(error);
    // Its diagnostics would point at the file's first line, since the
    // blank lines before it cannot be told from its own.
    if (part.trim().empty()) {
      reportErrors(makeErrorAt(
          input.getBufferIdentifier() + ":" +
              Twine(getTextBefore(input, part).count('\n') + 1) + ":1",
          "the part of the input that starts here is empty: it has no "
          "entry point to run"));
      anyFailed = true;
      continue;
    }
    pid_t child;
    {
      StopSignalsBlocked blocked;
      child = fork();
      if (child == 0) {
        // The part runs with the handlers and signal mask this process
        // had before it ran the parts.
        forwarding.restore();
        return makePartInput(input, part);
      }
      if (child != -1)
        runningChild = child;
    }
    if (child == -1)
      return makeError("--split-input-file: cannot start a process to run "
                       "part " +
                       Twine(index + 1) + ": " + std::strerror(errno));

    int childStatus = 0;
    while (waitpid(child, &childStatus, 0) == -1) {
      if (errno != EINTR) {
        runningChild = 0;
        return makeError("--split-input-file: cannot wait for part " +
                         Twine(index + 1) + ": " + std::strerror(errno));
      }
    }
    runningChild = 0;
    // The part was stopped with this process: so is the rest of the run.
    if (stopSignal != 0)
      endByStopSignal(forwarding);
    if (WIFEXITED(childStatus)) {
      int code = WEXITSTATUS(childStatus);
      anyFailed |= code != 0;
      if (code != 0 && code != 1 && otherStatus == 0)
        otherStatus = code;
      continue;
    }
    int signal = WTERMSIG(childStatus);
    // The reader of stdout is gone: this process ends as the part did.
    if (signal == SIGPIPE) {
      std::signal(SIGPIPE, SIG_DFL);
      std::raise(SIGPIPE);
    }
    reportErrors(makeErrorAt(input.getBufferIdentifier() + ":" +
                                 Twine(getFirstLine(input, part)) + ":1",
                             "the run of the part of the input from here "
                             "ended by signal " +
                                 Twine(signal) + " (" + strsignal(signal) +
                                 ")"));
    anyFailed = true;
  }
  int status = otherStatus ? otherStatus : anyFailed ? 1 : 0;
  if (status != 0)
    return llvm::make_error<AlreadyReported>(status);
  return nullptr;
}

std::string getPartLocation(const llvm::MemoryBuffer &part) {
  // The text before the part is blank in it (makePartInput).
  StringRef text = part.getBuffer();
  size_t start = std::min(text.find_first_not_of(" \t\r\n"), text.size());
  return (part.getBufferIdentifier() + ":" +
          Twine(text.take_front(start).count('\n') + 1) + ":1")
      .str();
}

} // namespace gpu_runner
