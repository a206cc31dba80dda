//===- ProgramSource.h - The compile cache, or the compiler ---------------===//
//
// Where a run's compiled program comes from: the compile cache, under a key
// made of everything that decides what is compiled, or the compiler, which
// is loaded only then (runner/CompilerLoader.h), and whose result the cache
// then keeps.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_PROGRAMSOURCE_H
#define GPU_RUNNER_RUNNER_PROGRAMSOURCE_H

#include "lowering/device/Targets.h"
#include "runner/EntryData.h"
#include "runner/Options.h"
#include "runner/RunTiming.h"
#include "runner/compiler/Compiler.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace gpu_runner {

class Jit;

/// The compiled program: from the compile cache when it has it, else
/// compiled from `input` (and stored in the cache). The compiler prints
/// its own diagnostics: a program that does not compile is an
/// AlreadyReported error (RunnerError.h).
llvm::Expected<CompiledProgram>
getCompiledProgram(std::unique_ptr<llvm::MemoryBuffer> input,
                   const RunnerOptions &options, EntryResult entryResult,
                   Backend backend, const PipelineOptions &pipeline,
                   const RunData &data, Jit &jit, RunTiming &timing);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_PROGRAMSOURCE_H
