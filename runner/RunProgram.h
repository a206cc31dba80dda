//===- RunProgram.h - Loading and running a compiled program --------------===//
//
// A compiled program linked in the JIT with its GPU binaries, the backend
// started, the constructors run (which load the GPU modules), the entry
// point called, once or as a benchmark, and the backend finalized, which
// reports what the program leaked. Runner.cpp calls the steps in order and
// reports their errors.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_RUNPROGRAM_H
#define GPU_RUNNER_RUNNER_RUNPROGRAM_H

#include "runner/BenchmarkReport.h"
#include "runner/EntryData.h"
#include "runner/Options.h"
#include "runner/RunTiming.h"
#include "runner/compiler/Compiler.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace gpu_runner {

class Jit;

/// One run of a compiled program.
class ProgramRun {
public:
  /// Writes the object (--dump-object-file), links `program` and its GPU
  /// binaries in `jit`, which refers to them for as long as the run lives,
  /// and finds its entry point. `compileSeconds` is what compiling took (or
  /// finding it in the cache), for the benchmark report.
  static llvm::Expected<std::unique_ptr<ProgramRun>>
  link(CompiledProgram compiled, Jit &jit, const RunnerOptions &options,
       EntryResult entryResult, RunTiming &timing, double compileSeconds);

  /// Makes the entry point's arguments from `data`'s --input values (for a
  /// program compiled to be called with data), which are checked before
  /// anything runs, starts the backend and runs the program's constructors.
  llvm::Error start(RunData &data);

  /// Calls the entry point once, or as --benchmark-repetitions says. The
  /// results of each call are read, and the program's memory given back;
  /// the last call's are kept for reportResults. Each result that cannot be
  /// read is an error, in every call it cannot.
  llvm::Error run();

  /// --benchmark-repetitions' report on stderr (compile and load times, and
  /// the time per timed run) and --benchmark-out's file. Nothing without
  /// the flag.
  llvm::Error reportBenchmark();

  /// Prints, writes and compares the last call's results (reportResults in
  /// EntryData.h), for a program called with data; else nothing.
  llvm::Error reportResults(const RunData &data) const;

  /// Runs the program's destructors and finalizes the backend, which
  /// reports what the program leaked; then checks that the program's
  /// output was written.
  llvm::Error finish();

private:
  ProgramRun(CompiledProgram program, Jit &jit, const RunnerOptions &options,
             EntryResult entryResult, RunTiming &timing, double compileSeconds)
      : program(std::move(program)), jit(jit), options(options),
        entryResult(entryResult), timing(timing),
        compileSeconds(compileSeconds) {}

  const CompiledProgram program;
  Jit &jit;
  const RunnerOptions &options;
  EntryResult entryResult;
  RunTiming &timing;
  double compileSeconds;
  Clock::time_point loadStart;
  double loadSeconds = 0;
  /// The sizes of the GPU binaries, which the object reads.
  std::vector<uint64_t> binarySizes;
  /// The sizes of their kernel IR, likewise.
  std::vector<uint64_t> kernelIRSizes;
  void *entry = nullptr;
  /// With data: the call, and the program's free(), for memrefs it returns.
  std::unique_ptr<EntryCall> call;
  void (*programFree)(void *) = nullptr;
  std::vector<DataValue> results;
  /// The timed runs of a benchmark.
  BenchmarkRuns benchmark;
  /// --launch: where each timed run's ops begin in the run's record, and
  /// where the last one's end.
  std::vector<size_t> recordedRunStarts;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_RUNPROGRAM_H
