//===- RunTiming.h - The phases of a run, for --timing --------------------===//
//
// --timing reports, when the run ends, how long each phase took and what
// the compile cache did. The report is MLIR's timing manager, which comes
// with the compiler (runner/compiler/Compiler.h): without --timing the
// phases time nothing, and the compiler is not loaded for them.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_RUNTIMING_H
#define GPU_RUNNER_RUNNER_RUNTIMING_H

#include "runner/compiler/Compiler.h"

#include <chrono>
#include <memory>
#include <string>

namespace gpu_runner {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The phases of a run and what the compile cache did, which --timing
/// reports on stderr when this is destroyed. Until start() its phases time
/// nothing.
class RunTiming {
public:
  RunTiming() = default;
  ~RunTiming();
  RunTiming(const RunTiming &) = delete;
  RunTiming &operator=(const RunTiming &) = delete;

  /// Times the phases from now on in `report`, which is printed at the end
  /// when `printed` (--timing).
  void start(std::unique_ptr<TimingReport> report, bool printed) {
    this->report = std::move(report);
    this->printed = printed;
  }

  /// The phase `name` (a string literal) of the run, which lasts until the
  /// object returned is destroyed.
  std::unique_ptr<Phase> nest(const char *name) { return getRoot().nest(name); }
  Phase &getRoot() { return report ? report->getRoot() : untimed; }

  /// What the compile cache did, in a few words.
  std::string cacheStatus = "off";

private:
  std::unique_ptr<TimingReport> report;
  bool printed = false;
  UntimedPhase untimed;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_RUNTIMING_H
