//===- BenchmarkReport.h - What --benchmark-repetitions reports -----------===//
//
// The timed runs of a benchmark, reported on stderr and, with
// --benchmark-out, in Google Benchmark's JSON format, so that its
// compare.py and the dashboards that read it read ours.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_BENCHMARKREPORT_H
#define GPU_RUNNER_RUNNER_BENCHMARKREPORT_H

#include "runner/Options.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace gpu_runner {

/// The timed runs of a benchmark, in seconds.
struct BenchmarkRuns {
  /// From the call until the work it enqueued is done.
  std::vector<double> wall;
  /// The process's CPU time over the same span.
  std::vector<double> cpu;
  /// --launch: the kernel's launches alone, on the device; empty, with
  /// `kernelMissing` set, where some run's launches were not timed.
  std::vector<double> kernel;
  bool kernelMissing = false;
  double compileSeconds = 0;
  /// What the compile cache did ("hit, /path/llvmcache-...").
  std::string cacheStatus;
  double loadSeconds = 0;
};

/// The aggregates of a series of times.
struct BenchmarkAggregates {
  double mean = 0;
  double median = 0;
  /// The sample standard deviation (n - 1), 0 for one run.
  double stddev = 0;
  double min = 0;
  double max = 0;
};

BenchmarkAggregates aggregateTimes(std::vector<double> times);

/// The report on stderr: compile and load times, then the aggregates.
void printBenchmarkReport(const RunnerOptions &options,
                          const BenchmarkRuns &runs);

/// --benchmark-out's JSON.
std::string formatBenchmarkJson(const RunnerOptions &options,
                                const BenchmarkRuns &runs);

/// Writes --benchmark-out's file when the flag is given.
llvm::Error writeBenchmarkOut(const RunnerOptions &options,
                              const BenchmarkRuns &runs);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_BENCHMARKREPORT_H
