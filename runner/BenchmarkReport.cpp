//===- BenchmarkReport.cpp - What --benchmark-repetitions reports ---------===//
//
// The JSON follows what Google Benchmark writes with
// --benchmark_repetitions and --benchmark_out_format=json: a `context`
// object, then under `benchmarks` one "iteration" entry per run and the
// "aggregate" entries (mean, median, stddev, and here min and max too). A
// --launch benchmark adds the kernel's own time as a second family named
// "<kernel>/manual_time", as Google Benchmark names a benchmark that
// reports a time it measured itself.
//
//===----------------------------------------------------------------------===//

#include "runner/BenchmarkReport.h"

#include "runner/OutputFile.h"
#include "runner/RunnerError.h"
#include "wrappers/Backend.h"
#include "wrappers/RunRecord.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <numeric>
#include <thread>
#include <unistd.h>

using llvm::Error;
using llvm::StringRef;

namespace gpu_runner {

namespace {

/// A unit to print times in: "ms", and how many make a second.
struct TimeUnit {
  const char *name;
  double perSecond;
};

/// The unit that fits `reference` seconds, as Google Benchmark's units go.
TimeUnit unitFor(double reference) {
  if (reference < 1e-3)
    return {"us", 1e6};
  if (reference < 1.0)
    return {"ms", 1e3};
  return {"s", 1.0};
}

/// "2026-12-07T18:20:00+00:00", the local time as Google Benchmark writes
/// it.
std::string getLocalDate() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S%z", &local);
  // %z gives +0000; the format wants +00:00.
  std::string date = text;
  if (date.size() >= 5)
    date.insert(date.size() - 2, ":");
  return date;
}

std::string getHostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0)
    return "";
  return name;
}

std::string getBenchmarkName(const RunnerOptions &options) {
  return options.launch.empty() ? options.entryPoint.getValue()
                                : options.launch.getValue();
}

class BenchmarkJsonWriter {
public:
  BenchmarkJsonWriter(const RunnerOptions &options, const BenchmarkRuns &runs,
                      llvm::raw_ostream &os)
      : options(options), runs(runs), json(os, 2),
        unit(unitFor(aggregateTimes(runs.wall).median)) {}

  void write() {
    json.object([&] {
      json.attributeObject("context", [&] { writeContext(); });
      json.attributeArray("benchmarks", [&] {
        std::string name = getBenchmarkName(options);
        writeFamily(0, name, runs.wall);
        if (!runs.kernel.empty())
          writeFamily(1, name + "/manual_time", runs.kernel);
      });
    });
  }

private:
  void writeContext() {
    json.attribute("date", getLocalDate());
    json.attribute("host_name", getHostName());
    json.attribute("executable",
                   std::string("gpu-runner-") + getBackendName(getBackend()));
    json.attribute("num_cpus",
                   static_cast<int64_t>(std::thread::hardware_concurrency()));
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) == 3)
      json.attributeArray("load_avg", [&] {
        for (double value : load)
          json.value(value);
      });
    json.attribute("library_build_type", "release");
    json.attribute("gpu_runner_program", options.inputFilename);
    json.attribute("gpu_runner_backend", getBackendName(getBackend()));
    json.attribute("gpu_runner_warmup_runs",
                   static_cast<int64_t>(options.benchmarkWarmup));
    json.attribute("gpu_runner_compile_ms", runs.compileSeconds * 1e3);
    json.attribute("gpu_runner_compile_cache", runs.cacheStatus);
    json.attribute("gpu_runner_load_ms", runs.loadSeconds * 1e3);
  }

  /// The fields every entry of a family has.
  void writeCommon(int64_t family, StringRef runName) {
    json.attribute("family_index", family);
    json.attribute("per_family_instance_index", 0);
    json.attribute("run_name", runName);
    json.attribute("repetitions", static_cast<int64_t>(runs.wall.size()));
    json.attribute("threads", 1);
  }

  void writeTimes(double real, double cpu) {
    json.attribute("real_time", real * unit.perSecond);
    json.attribute("cpu_time", cpu * unit.perSecond);
    json.attribute("time_unit", unit.name);
  }

  void writeFamily(int64_t family, const std::string &name,
                   const std::vector<double> &real) {
    for (size_t index = 0; index < real.size(); ++index)
      json.object([&] {
        json.attribute("name", name);
        writeCommon(family, name);
        json.attribute("run_type", "iteration");
        json.attribute("repetition_index", static_cast<int64_t>(index));
        json.attribute("iterations", 1);
        writeTimes(real[index], runs.cpu[index]);
      });
    BenchmarkAggregates realTimes = aggregateTimes(real);
    BenchmarkAggregates cpuTimes = aggregateTimes(runs.cpu);
    auto aggregate = [&](const char *what, double realTime, double cpuTime) {
      json.object([&] {
        json.attribute("name", name + "_" + what);
        writeCommon(family, name);
        json.attribute("run_type", "aggregate");
        json.attribute("aggregate_name", what);
        json.attribute("aggregate_unit", "time");
        json.attribute("iterations", static_cast<int64_t>(real.size()));
        writeTimes(realTime, cpuTime);
      });
    };
    aggregate("mean", realTimes.mean, cpuTimes.mean);
    aggregate("median", realTimes.median, cpuTimes.median);
    aggregate("stddev", realTimes.stddev, cpuTimes.stddev);
    aggregate("min", realTimes.min, cpuTimes.min);
    aggregate("max", realTimes.max, cpuTimes.max);
  }

  const RunnerOptions &options;
  const BenchmarkRuns &runs;
  llvm::json::OStream json;
  TimeUnit unit;
};

} // namespace

BenchmarkAggregates aggregateTimes(std::vector<double> times) {
  BenchmarkAggregates result;
  if (times.empty())
    return result;
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  result.min = times.front();
  result.max = times.back();
  result.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  result.mean = std::accumulate(times.begin(), times.end(), 0.0) / n;
  if (n > 1) {
    double squares = 0;
    for (double time : times)
      squares += (time - result.mean) * (time - result.mean);
    result.stddev = std::sqrt(squares / (n - 1));
  }
  return result;
}

void printBenchmarkReport(const RunnerOptions &options,
                          const BenchmarkRuns &runs) {
  BenchmarkAggregates wall = aggregateTimes(runs.wall);
  TimeUnit unit = unitFor(wall.median);
  auto time = [&](double seconds) {
    return llvm::format("%.3f %s", seconds * unit.perSecond, unit.name);
  };
  auto ms = [](double seconds) {
    return llvm::format("%.3f ms", seconds * 1e3);
  };
  // Two lines: "<label>min .., median .., max ..", then the mean's.
  auto printAggregates = [&](StringRef label, StringRef meanLabel,
                             const BenchmarkAggregates &times) {
    llvm::errs() << "  " << llvm::left_justify(label, 17) << "min "
                 << time(times.min) << ", median " << time(times.median)
                 << ", max " << time(times.max) << "\n"
                 << "  " << llvm::left_justify(meanLabel, 17)
                 << time(times.mean) << " (stddev " << time(times.stddev)
                 << ")\n";
  };
  llvm::raw_ostream &os = llvm::errs();
  if (options.launch.empty())
    os << "benchmark: entry point '" << options.entryPoint << "'";
  else
    os << "benchmark: kernel '" << options.launch << "'";
  os << ", backend " << getBackendName(getBackend()) << "\n"
     << "  warm-up runs:    " << options.benchmarkWarmup << " (not timed)\n"
     << "  timed runs:      " << runs.wall.size() << "\n"
     << "  compile:         " << ms(runs.compileSeconds)
     << " (compile cache: " << runs.cacheStatus << "; not in the runs)\n"
     << "  load:            " << ms(runs.loadSeconds) << " (not in the runs)\n";
  printAggregates("time per run:", "mean:", wall);
  // The launches alone, timed on the device: without the copies in and out.
  if (!runs.kernel.empty())
    printAggregates(
        "kernel alone:", "kernel mean:", aggregateTimes(runs.kernel));
  else if (runs.kernelMissing)
    os << "  kernel alone:    not measured: the run's record keeps the first "
       << kMaxRecordedEntries
       << " runtime calls, and some runs came after (fewer repetitions "
          "measure it)\n";
  os.flush();
}

std::string formatBenchmarkJson(const RunnerOptions &options,
                                const BenchmarkRuns &runs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  BenchmarkJsonWriter(options, runs, os).write();
  os << "\n";
  return text;
}

Error writeBenchmarkOut(const RunnerOptions &options,
                        const BenchmarkRuns &runs) {
  if (options.benchmarkOut.empty())
    return Error::success();
  if (Error error = writeFileWhole(options.benchmarkOut,
                                   formatBenchmarkJson(options, runs)))
    return makeError("--benchmark-out=" + options.benchmarkOut +
                     ": cannot write it: " + llvm::toString(std::move(error)));
  return Error::success();
}

} // namespace gpu_runner
