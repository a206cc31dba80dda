//===- Compiler.h - From a program's text to a compiled program -----------===//
//
// Parses the program, lowers it with its backend's pipeline, checks what
// running it needs, and compiles it with the JIT's target machine. On a GPU
// backend the kernels are compiled apart, each gpu.module on a thread of
// its own, while the host code is lowered and compiled: the host object
// refers to each GPU binary by name, and the runner provides the binaries
// when it loads the object.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_COMPILER_H
#define GPU_RUNNER_RUNNER_COMPILER_H

#include "lowering/Pipeline.h"
#include "runner/CompileCache.h"
#include "runner/Jit.h"

#include "mlir/Support/Timing.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>

namespace gpu_runner {

/// What the entry point returns (--entry-point-result).
enum class EntryResult { Void, I32, I64, F32 };

/// The result type a --entry-point-result value names, if any.
std::optional<EntryResult> parseEntryResult(llvm::StringRef text);

struct CompileOptions {
  Backend backend = Backend::Host;
  PipelineOptions pipeline;
  /// The input's name as given, which locations in messages carry.
  std::string inputFilename;
  std::string entryPoint = "main";
  EntryResult entryResult = EntryResult::Void;
  /// The --entry-point-result flag as given, for messages.
  std::string entryResultFlag = "void";
  /// Print the whole program after each pass (compiling kernels in place),
  /// or once lowered.
  bool printIRAfterAll = false;
  bool printIRAfterLowering = false;
};

/// Compiles the program in `input` for `jit`, timing each phase under
/// `timing`. Errors are printed as diagnostics, with their locations.
mlir::FailureOr<CompiledProgram>
compileProgram(std::unique_ptr<llvm::MemoryBuffer> input,
               const CompileOptions &options, Jit &jit,
               mlir::TimingScope &timing);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_COMPILER_H
