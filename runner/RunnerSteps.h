//===- RunnerSteps.h - The steps of a gpu-runner run ----------------------===//
//
// What Runner.cpp's runGpuRunnerMain calls, in order: the checks of the
// flags and the input (OptionChecks.cpp), finding the compiled program in
// the compile cache or compiling it (ProgramSource.cpp), and running it
// (RunProgram.cpp). Internal to the runner.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_RUNNERSTEPS_H
#define GPU_RUNNER_RUNNER_RUNNERSTEPS_H

#include "lowering/Targets.h"
#include "runner/CompileCache.h"
#include "runner/CompilerLoader.h"
#include "runner/Options.h"
#include "runner/compiler/Compiler.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <memory>
#include <string>

namespace gpu_runner {

class Jit;
struct RunData;

/// Prints "error: <message>" the way diagnostics without a location read,
/// and returns the exit status of a failed run, 1.
int fail(const llvm::Twine &message);

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Flushes everything the program may have printed, in the order it printed
/// it: C stdio, C++ streams, then our own stream.
void flushProgramOutput();

/// Opens /dev/null on whichever of stdin, stdout and stderr is closed, so
/// that no file the run opens takes its number (and the program's output
/// does not land in it); writes to it fail, as they would have.
void occupyClosedStandardStreams();

/// Flushes the program's output, and prints an error when any of it could
/// not be written: a full disk, a closed stdout.
llvm::LogicalResult checkProgramOutput();

/// The phases of a run and what the compile cache did, which --timing
/// reports on stderr when the run ends. Without --timing its phases time
/// nothing.
class RunTiming {
public:
  /// `report` is null without --timing.
  explicit RunTiming(std::unique_ptr<TimingReport> report);
  ~RunTiming();
  RunTiming(const RunTiming &) = delete;
  RunTiming &operator=(const RunTiming &) = delete;

  /// The phase `name` (a string literal) of the run, which lasts until the
  /// object returned is destroyed.
  std::unique_ptr<Phase> nest(const char *name) { return getRoot().nest(name); }
  Phase &getRoot() { return report ? report->getRoot() : untimed; }

  /// What the compile cache did, in a few words.
  std::string cacheStatus = "off";

private:
  std::unique_ptr<TimingReport> report;
  UntimedPhase untimed;
};

//===----------------------------------------------------------------------===//
// OptionChecks.cpp
//===----------------------------------------------------------------------===//

/// Checks the flags against each other and against the backend, before
/// anything is read; prints the first mistake.
llvm::LogicalResult checkOptions(const RunnerOptions &options, Backend backend);

/// Text MLIR is UTF-8 without NUL bytes, and bytecode starts with its magic
/// number; anything else is reported here, with the line and column of the
/// first byte that is neither, before the parser tries to echo a line of
/// binary back at the user.
bool checkInputIsMLIR(const llvm::MemoryBuffer &input);

/// The pipeline the flags ask for on `backend`, with the chip kernels are
/// compiled for (chooseGpuTarget); prints why there is none.
llvm::FailureOr<PipelineOptions> choosePipeline(const RunnerOptions &options,
                                                Backend backend);

//===----------------------------------------------------------------------===//
// ProgramSource.cpp
//===----------------------------------------------------------------------===//

/// The compiled program: from the compile cache when it has it, else
/// compiled from `input` (and stored in the cache). Errors, the program's
/// included, are printed.
llvm::FailureOr<CompiledProgram>
getCompiledProgram(std::unique_ptr<llvm::MemoryBuffer> input,
                   const RunnerOptions &options, EntryResult entryResult,
                   Backend backend, const PipelineOptions &pipeline,
                   const RunData &data, Jit &jit, RunTiming &timing);

//===----------------------------------------------------------------------===//
// RunProgram.cpp
//===----------------------------------------------------------------------===//

/// Loads the compiled program into `jit`, runs its entry point (several
/// times for --benchmark-repetitions) and finalizes the backend; returns
/// the exit status. `compileSeconds` is what compiling took (or finding it
/// in the cache), for the benchmark report.
/// `data` holds the entry point's --input and --expected-output values,
/// for a program compiled to be called with data.
int runProgram(const CompiledProgram &program, Jit &jit,
               const RunnerOptions &options, EntryResult entryResult,
               RunTiming &timing, double compileSeconds, RunData &data);

//===----------------------------------------------------------------------===//
// SplitInput.cpp
//===----------------------------------------------------------------------===//

/// --split-input-file: cuts `input` at its `// -----` lines and runs the
/// parts in order, each in a child process of its own, with `// -----`
/// printed between their outputs. In a child it returns that child's part,
/// which the child runs as its whole input: a buffer of the input's name in
/// which the text before the part is blank, so that its ops keep their
/// lines and columns. In this process it returns null once every part has
/// run, with `status` the run's exit status: 1 if any part failed.
std::unique_ptr<llvm::MemoryBuffer>
runPartsInChildren(const llvm::MemoryBuffer &input, int &status);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_RUNNERSTEPS_H
