//===- Compiler.h - From a program's text to a compiled program -----------===//
//
// Parses the program, lowers it with its backend's pipeline, checks what
// running it needs, and compiles it with the JIT's target machine. On a GPU
// backend the kernels are compiled apart, each gpu.module on a thread of
// its own, while the host code is lowered and compiled: the host object
// refers to each GPU binary by name, and the runner provides the binaries
// when it loads the object.
//
// This is the part of gpu-runner that uses MLIR, and it lives in a library
// of its own, libGpuRunnerCompiler.so, which the runner loads only when it
// compiles a program or reports --timing: loading libMLIR takes longer
// than running a program found in the compile cache. This header is what
// the runner sees of it, and uses no MLIR type: timing crosses it as a
// Phase, which the compiler implements over MLIR's timing manager. Where
// LLVM is linked statically (scripts/device-bundle), the compiler is linked
// in. It includes nothing of the runner: the runner depends on the
// compiler, never the other way round.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_COMPILER_COMPILER_H
#define GPU_RUNNER_RUNNER_COMPILER_COMPILER_H

#include "lowering/device/Targets.h"
#include "runner/compiler/EntrySignature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace gpu_runner {

/// What the entry point returns (--entry-point-result).
enum class EntryResult { Void, I32, I64, F32 };

/// The result type a --entry-point-result value names, if any.
inline std::optional<EntryResult> parseEntryResult(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<EntryResult>>(text)
      .Case("void", EntryResult::Void)
      .Case("i32", EntryResult::I32)
      .Case("i64", EntryResult::I64)
      .Case("f32", EntryResult::F32)
      .Default(std::nullopt);
}

/// The functions a compiled program's global constructors and destructors
/// become, which the runner calls: objects carry constructors in sections
/// that only a native ORC platform, with its runtime library, would run.
inline constexpr llvm::StringLiteral kInitFunctionName = "__gpu_runner_init";
inline constexpr llvm::StringLiteral kFiniFunctionName = "__gpu_runner_fini";

/// A GPU binary compiled apart from the host object, which refers to it by
/// name (getDeviceObjectGlobalName in lowering/device/Targets.h).
struct GpuBinary {
  /// The name of its gpu.binary.
  std::string name;
  /// What the driver loads.
  std::string object;
  /// The LLVM IR (bitcode) the object was made from, for a driver stand-in
  /// that runs kernels from it (CUDA kernels; empty otherwise). A real
  /// driver is never given it.
  std::string kernelIR;
};

/// What compiling a program gives, and what the compile cache keeps.
struct CompiledProgram {
  /// The host object: the program, with its kernels on the host backend.
  std::string object;
  /// The external functions and globals it uses, which must resolve when
  /// it is loaded (the runtime, a --shared-libs library, the process).
  std::vector<std::string> externals;
  /// The GPU binaries the object refers to, on a GPU backend.
  std::vector<GpuBinary> gpuBinaries;
  /// How to call the entry point with data: set when the program was
  /// compiled for --input and the other data flags, with kPackedEntryName.
  std::optional<EntrySignature> signature;
};

/// What --launch runs: one kernel, on a grid of blocks.
struct LaunchTarget {
  std::string module;
  std::string kernel;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  uint32_t dynamicSharedMemory = 0;
};

struct CompileOptions {
  Backend backend = Backend::Host;
  PipelineOptions pipeline;
  /// The input's name as given, which locations in messages carry.
  std::string inputFilename;
  std::string entryPoint = "main";
  EntryResult entryResult = EntryResult::Void;
  /// The --entry-point-result flag as given, for messages.
  std::string entryResultFlag = "void";
  /// Call the entry point with data (--input): any signature it has is
  /// read into the program's EntrySignature, and entryResult is not used.
  bool withData = false;
  /// For --launch: the host function that runs the kernel is generated,
  /// and is the entry point (kLaunchEntryName).
  std::optional<LaunchTarget> launch;
  /// Print the whole program after each pass (compiling kernels in place),
  /// or once lowered.
  bool printIRAfterAll = false;
  bool printIRAfterLowering = false;
  /// --passes: a pass pipeline run on the program as parsed, before
  /// anything else; empty for none.
  std::string passes;
  /// Told what the compiler does next ("parsing the program"), for the
  /// messages of a run that ends while it does (runner/Activity.h).
  void (*setActivity)(const char *what) = [](const char *) {};
};

/// The stack the compiler is to run on: MLIR's parser, verifier and passes
/// recurse once a level of nesting, and a program's text may nest up to
/// 1000 levels (deeper is refused before parsing). A thread's default, 8
/// MiB, holds that in a plain build but not with every sanitizer.
constexpr unsigned kCompilerStackBytes = 512u << 20;

/// What compiling needs of the JIT the program is to run in.
class CompileTarget {
public:
  virtual ~CompileTarget() = default;
  virtual const llvm::DataLayout &getDataLayout() const = 0;
  virtual const llvm::Triple &getTargetTriple() const = 0;
  /// The target machine that compiles the program, made the first time.
  virtual llvm::Expected<llvm::TargetMachine &> getTargetMachine() = 0;
  /// The LLVM optimization level, 0 to 3.
  virtual unsigned getOptLevel() const = 0;
  /// Whether the host code is to carry debug info, the lines of the input,
  /// for a debugger the JIT registers it with.
  virtual bool getDebugInfo() const = 0;
  /// Whether the host code is to keep its frame pointers, for a debugger's
  /// or profiler's backtraces.
  virtual bool getFramePointers() const = 0;
  /// Those of `names` that nothing outside the program defines.
  virtual std::vector<std::string>
  findUnresolvedSymbols(llvm::ArrayRef<std::string> names) = 0;
};

/// A phase of a run, timed for --timing's report or not at all. A phase
/// lasts until the object nest() returned is destroyed.
class Phase {
public:
  virtual ~Phase() = default;
  /// The phase `name` within this one. `name` is a string literal: its
  /// address identifies the phase, so that phases of one name add up.
  virtual std::unique_ptr<Phase> nest(const char *name) = 0;
};

/// A phase that times nothing, and whose phases time nothing.
class UntimedPhase final : public Phase {
public:
  std::unique_ptr<Phase> nest(const char *) override {
    return std::make_unique<UntimedPhase>();
  }
};

/// Told of each phase as it begins and ends, on the thread that runs it:
/// --trace's timeline.
class PhaseListener {
public:
  virtual ~PhaseListener() = default;
  /// The phase `name` begins; returns what endPhase takes.
  virtual size_t beginPhase(const std::string &name) = 0;
  virtual void endPhase(size_t phase) = 0;
};

/// --timing's report: MLIR's timing manager, in the compiler library.
class TimingReport {
public:
  virtual ~TimingReport() = default;
  /// The phase of the whole run.
  virtual Phase &getRoot() = 0;
  /// Ends the root and, when the report was made to print, prints it on
  /// stderr; every phase under the root must be done.
  virtual void print() = 0;
};

/// The compiler's entry points, which the runner finds with loadCompiler
/// (runner/CompilerLoader.h).
struct Compiler {
  /// Compiles the program in `input` for `target`, timing each phase under
  /// `timing`. Errors are printed as diagnostics, with their locations.
  llvm::FailureOr<CompiledProgram> (*compileProgram)(
      std::unique_ptr<llvm::MemoryBuffer> input, const CompileOptions &options,
      CompileTarget &target, Phase &timing);
  /// Optimizes the LLVM IR of a lowered program and compiles it to an
  /// object for `target`: the last step of compileProgram.
  llvm::Expected<std::string> (*compileModule)(llvm::Module &module,
                                               CompileTarget &target,
                                               Phase &timing);
  /// A report that prints when `print` is set (--timing) and tells
  /// `listener`, if any, of each phase as it begins and ends (--trace).
  std::unique_ptr<TimingReport> (*createTimingReport)(bool print,
                                                      PhaseListener *listener);
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_COMPILER_COMPILER_H
