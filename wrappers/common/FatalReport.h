//===- FatalReport.h - The one error that ends the process ---------------===//
//
// Every path that ends a run with an error (a runtime error, a fault, a
// timeout) goes through here, from a thread or from a signal handler:
//
// - only the first error is printed: two kernels that fault on two streams
//   at once, or a fault while another thread reports an error, give one
//   line, the first one's; the other threads wait until it ends the
//   process;
// - the program's output is flushed first only when nobody holds stdout's
//   lock (the lock of a thread that crashed, or that waits for a pipe, would
//   otherwise hang the report);
// - the report has a deadline: if flushing hangs or faults anyway, the
//   message already made is printed and the process ends with status 1.
//
// All of it is async-signal-safe: atomics, write, alarm, sigaction, _Exit,
// and a try-lock of stdout.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_FATALREPORT_H
#define GPU_RUNNER_WRAPPERS_COMMON_FATALREPORT_H

#include <cstddef>

namespace gpu_runner {

/// What beginFatalReport found.
enum class FatalReportClaim {
  /// The calling thread reports; nobody else will.
  Claimed,
  /// Another thread reports: the caller must call waitForFatalReport.
  OtherThread,
  /// The calling thread was already reporting and got here again (it
  /// faulted while reporting): the caller must call finishFatalReport.
  Again,
};

/// Claims the one report of the process for the calling thread.
FatalReportClaim beginFatalReport();

/// Sleeps until the thread that reports ends the process.
[[noreturn]] void waitForFatalReport();

/// Returns if the calling thread now reports (beginFatalReport claimed it);
/// else does what the claim asks: waits for the thread that reports, or,
/// on a thread that failed again while it reported, prints what it had and
/// ends the process.
void claimFatalReportOrWait();

/// Keeps `length` bytes of `message` (one or more lines, with their
/// newlines) as the report's text, and starts the deadline: from now on,
/// whatever happens, that text is printed and the process ends with status
/// 1 within a few seconds.
void setFatalReportMessage(const char *message, size_t length);

/// Flushes stdout (and std::cout, which writes to it) if no thread holds
/// its lock, so that what the program printed comes before the error.
void flushProgramOutputIfFree();

/// Prints the report's text, unless it was printed already.
void printFatalReportMessage();

/// Prints the report's text (once), runs the exit hook (once) and ends the
/// process with status 1.
[[noreturn]] void finishFatalReport();

/// What to do after the report's text is printed and before the process
/// ends: write the run's trace (--trace). It runs under the report's
/// deadline, and may run in a signal handler, after a fault: it does what it
/// can, and the deadline ends what hangs.
void setFatalReportExitHook(void (*hook)());

/// Marks the calling thread as running the runtime op at `loc` (a copy, a
/// memset, reading a memref descriptor) for as long as the scope lasts: the
/// runtime checks device memory before an op runs, but not the host memory
/// the program hands it, so the fault handler reports a fault there at the
/// op.
class RunningOpScope {
public:
  explicit RunningOpScope(const char *loc);
  ~RunningOpScope();
  RunningOpScope(const RunningOpScope &) = delete;
  RunningOpScope &operator=(const RunningOpScope &) = delete;

private:
  const char *saved;
};

/// The loc of the op the calling thread runs (RunningOpScope), or null.
/// Async-signal-safe.
const char *runningOpLoc();

/// Writes `length` bytes to stderr with write(2).
void writeToStderr(const char *text, size_t length);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_FATALREPORT_H
