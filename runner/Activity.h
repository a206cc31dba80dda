//===- Activity.h - What a run is doing, for errors that end it abruptly --===//
//
// A run that ends in the middle of something (--timeout, LLVM out of
// memory, one of LLVM's fatal errors) says what it was doing: "timed out
// ... while parsing the program". The steps of a run name their activity;
// the messages read it, from a signal handler too.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_ACTIVITY_H
#define GPU_RUNNER_RUNNER_ACTIVITY_H

namespace gpu_runner {

/// Sets what the run is doing to `what`, a string literal that follows
/// "while": "parsing the program". Async-signal-safe to read back.
void setActivity(const char *what);

/// What the run is doing; "starting" before the first activity.
const char *getActivity();

/// The activity of the running program itself, which --timeout reports as
/// "the program was still running".
extern const char kRunningActivity[];

/// An activity for as long as this lives; then the one before it again.
class ScopedActivity {
public:
  explicit ScopedActivity(const char *what) : previous(getActivity()) {
    setActivity(what);
  }
  ~ScopedActivity() { setActivity(previous); }
  ScopedActivity(const ScopedActivity &) = delete;
  ScopedActivity &operator=(const ScopedActivity &) = delete;

private:
  const char *previous;
};

/// Replaces LLVM's handlers for its fatal errors and for running out of
/// memory (which print "LLVM ERROR" and abort) with ones that report, as
/// the run's one error (wrappers/common/FatalReport.h), an error naming the
/// activity, and end the run with status 1.
void installFatalErrorHandlers();

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_ACTIVITY_H
