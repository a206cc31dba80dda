//===- CompilerSteps.h - The steps of compiling a program -----------------===//
//
// What Compiler.cpp puts together: parsing (Parse.cpp), the lowering
// pipeline and the checks of a lowered program (Lowering.cpp), gpu.modules
// compiled apart on threads (KernelJobs.cpp), and LLVM code generation
// (CodeGeneration.cpp). Inside the compiler library only: these use MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_COMPILER_COMPILERSTEPS_H
#define GPU_RUNNER_RUNNER_COMPILER_COMPILERSTEPS_H

#include "runner/compiler/Compiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <future>
#include <string>
#include <vector>

namespace llvm {
class DiagnosticInfo;
class LLVMContext;
class Module;
} // namespace llvm

namespace gpu_runner {

//===----------------------------------------------------------------------===//
// Parse.cpp
//===----------------------------------------------------------------------===//

/// Where a diagnostic about the whole program points: the `module` op when
/// the file has one, else the start of the file (an implicit module has no
/// line of its own), or of its text when it starts with blank lines.
mlir::Location getModuleLocation(mlir::ModuleOp module);

/// How deep brackets, braces, parentheses and angle brackets may nest in
/// a program's text: MLIR's parser, verifier and passes recurse once a
/// level, on a stack of kCompilerStackBytes (Compiler.h).
constexpr unsigned kMaxNesting = 1000;

/// Parses (and verifies) the program in `sourceMgr`'s main buffer, or
/// prints why it cannot: text nested deeper than kMaxNesting is refused,
/// and bytecode is read in a child process first, so that bytecode that
/// crashes or hangs MLIR's reader is an error, not the runner's crash.
/// `everyDialect`: the context has every dialect MLIR has (--passes).
mlir::OwningOpRef<mlir::ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr,
                                               mlir::MLIRContext &context,
                                               bool everyDialect = false);

/// Improves three of the parser's messages, as a handler that sees every
/// diagnostic of the parse before the printing one does:
/// - an op or type of a dialect the context does not know: MLIR suggests
///   -allow-unregistered-dialect, which gpu-runner does not have; say which
///   dialects it accepts instead, and, unless it has them all, that
///   --passes opens the others;
/// - an error at the end of the input: note that the input may be truncated;
/// - an error in bytecode, which has no line and column: at the file's start.
class ParseDiagnostics {
public:
  ParseDiagnostics(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
                   bool everyDialect);

private:
  llvm::LogicalResult handle(mlir::Diagnostic &diag);
  bool isBytecode();
  /// Whether only white space follows `loc` in its buffer.
  bool isAtEndOfInput(mlir::Location loc);

  mlir::MLIRContext &context;
  llvm::SourceMgr &sourceMgr;
  bool everyDialect;
  mlir::ScopedDiagnosticHandler handler;
};

//===----------------------------------------------------------------------===//
// InputPasses.cpp
//===----------------------------------------------------------------------===//

/// The dialects a program of `options` may use: those the lowering takes
/// (registerInputDialects), and with --passes every dialect MLIR has, for
/// the passes to lower.
void registerProgramDialects(mlir::DialectRegistry &registry,
                             const CompileOptions &options);

/// --passes: runs `options.passes`, a pass pipeline in mlir-opt's textual
/// syntax (`a,func.func(b{opt=1})`, with or without `builtin.module(...)`
/// around it), on `module`; an error for a pipeline that does not parse.
llvm::LogicalResult runInputPasses(mlir::ModuleOp module,
                                   const CompileOptions &options,
                                   mlir::TimingScope &timing);

/// What upstream's tests have mlir-opt do before mlir-runner, done for every
/// program that needs it, after --passes: a transform script's
/// `__transform_main` is applied to the program by the transform
/// interpreter, and the script erased; then code on tensors is bufferized
/// across function boundaries, and what bufferization allocates is freed.
llvm::LogicalResult runDefaultInputPasses(mlir::ModuleOp module,
                                          const CompileOptions &options,
                                          mlir::TimingScope &timing);

//===----------------------------------------------------------------------===//
// Lowering.cpp
//===----------------------------------------------------------------------===//

/// Runs the passes `build` adds on `module`, timed under `timing`; its
/// diagnostics are printed by the caller's handler.
llvm::LogicalResult
runPipeline(mlir::ModuleOp module,
            llvm::function_ref<void(mlir::OpPassManager &)> build,
            bool printAfterAll, mlir::TimingScope &timing);

/// Gives each function of the lowered program a debug info scope (a
/// DISubprogram) at its location, timed under `timing`: translation then
/// keeps each op's location, the line of the input it came from, as the
/// line of its instructions, which a debugger shows (-g). The kernels that
/// a GPU backend compiles apart get none.
llvm::LogicalResult addDebugInfoScopes(mlir::ModuleOp module,
                                       mlir::TimingScope &timing);

/// Checks that the entry point exists, is defined, and, unless it is
/// called with data (`withData`), takes no arguments and returns what
/// --entry-point-result says.
/// `missingHint` ends the message for an entry point that is not there
/// (describeEntryCandidates, read before lowering).
llvm::LogicalResult checkEntryPoint(mlir::ModuleOp module, llvm::StringRef name,
                                    EntryResult result,
                                    llvm::StringRef resultFlag,
                                    bool withData = false,
                                    llvm::StringRef missingHint = {});

//===----------------------------------------------------------------------===//
// EntryPoint.cpp
//===----------------------------------------------------------------------===//

/// The signature of the entry point `name` as --input sees it, before
/// lowering; an error at the function for a type values cannot be given
/// or read for. A name that is no function gets an empty signature, for
/// checkEntryPoint to report after lowering.
/// `written`, where not null, is the function's type as the program wrote
/// it (getWrittenEntryType): its tensors, which bufferization made memrefs,
/// name the arguments and results in messages and `result[N]: TYPE` lines.
llvm::FailureOr<EntrySignature>
readEntrySignature(mlir::ModuleOp module, llvm::StringRef name,
                   mlir::FunctionType written = {});

/// The type of the entry point `name` as written, where it is a func.func
/// (else null): read before bufferization turns its tensors into memrefs.
mlir::FunctionType getWrittenEntryType(mlir::ModuleOp module,
                                       llvm::StringRef name);

/// What a user can run instead of a missing entry point, as the end of
/// checkEntryPoint's message: the program's functions for -e, or, in a file
/// of kernels only, --launch with one of them.
std::string describeEntryCandidates(mlir::ModuleOp module);

/// Adds the host function kLaunchEntryName, which runs `launch`'s kernel
/// with its arguments; errors for a kernel that is not there (listing
/// those that are) or that takes what --input cannot give.
llvm::LogicalResult addLaunchFunction(mlir::ModuleOp module,
                                      const LaunchTarget &launch);

/// Adds kPackedEntryName to the translated program, which calls the entry
/// point with the arguments and results of `signature` through pointers.
llvm::Error addPackedEntry(llvm::Module &module,
                           const EntrySignature &signature);

/// Checks that every external function and global the program uses is
/// provided by the runtime, a library or the process, so that a missing one
/// is reported where it is declared; those in `provided` the runner defines
/// itself. Adds their names to `externals`.
llvm::LogicalResult checkExternalSymbols(mlir::ModuleOp module,
                                         CompileTarget &jit,
                                         const llvm::StringSet<> &provided,
                                         std::vector<std::string> &externals);

/// The largest global a program may have: its initializer is held several
/// times over while the program is compiled and loaded, and LLVM's code
/// generation fails, with no location, on larger ones.
constexpr uint64_t kMaxGlobalBytes = uint64_t(1) << 30;

/// Drops the empty builtin.modules nested in `module` (a transform script
/// erased by its interpreter leaves one behind); an error at a nested
/// module that holds anything, which gpu-runner would not run.
llvm::LogicalResult dropNestedModules(mlir::ModuleOp module);

/// Checks that no global of the lowered program is larger than
/// kMaxGlobalBytes, at the global, before LLVM tries to hold it.
llvm::LogicalResult checkGlobalSizes(mlir::ModuleOp module);

//===----------------------------------------------------------------------===//
// KernelJobs.cpp
//===----------------------------------------------------------------------===//

/// What compiling one gpu.module apart gave.
struct KernelResult {
  llvm::LogicalResult status = llvm::failure();
  std::vector<GpuBinary> binaries;
  /// Its diagnostics, printed once the host code is compiled, so that the
  /// two do not interleave.
  std::string diagnostics;
};

/// A gpu.module compiled apart from the host code, on a thread of its own
/// and in a context of its own: MLIR does not run two pass managers on one
/// context at once.
struct KernelJob {
  /// The name of the gpu.module, and of the gpu.binary it becomes.
  std::string name;
  std::future<KernelResult> result;
};

/// Moves each gpu.module of `module` out and starts compiling it on a
/// thread, leaving in its place a gpu.binary of the same name whose object
/// is provided when the program is loaded (kExternalObjectAttrName), with
/// the kernel IR on CUDA (kExternalKernelIRAttrName). Leaves
/// the program as it is, and starts nothing, where a gpu.module is not for
/// exactly one target.
std::vector<KernelJob> startKernelJobs(mlir::ModuleOp module,
                                       llvm::MemoryBufferRef source,
                                       const CompileOptions &options,
                                       mlir::TimingScope &timing);

/// Waits for the kernel jobs, prints their messages, and adds the binaries
/// they compiled to `program`.
llvm::LogicalResult finishKernelJobs(std::vector<KernelJob> &jobs,
                                     CompiledProgram &program);

//===----------------------------------------------------------------------===//
// CodeGeneration.cpp
//===----------------------------------------------------------------------===//

/// Optimizes the program's LLVM IR `module` and compiles it to an object
/// for `target`, timing each under `timing`.
llvm::Expected<std::string> compileModule(llvm::Module &module,
                                          CompileTarget &target,
                                          mlir::TimingScope &timing);

//===----------------------------------------------------------------------===//
// PrivateMemoryGuards.cpp
//===----------------------------------------------------------------------===//

/// Puts a margin holding a pattern on each side of the static allocas of
/// the functions marked kHostPrivateMemoryGuardAttr (a GPU thread's private
/// memory on the host backend), compared before each return: a store just
/// out of bounds of one is reported at the kernel's launch. Before
/// optimization, so that the checks of arrays the optimizer resolves fold.
void guardPrivateMemory(llvm::Module &module);

//===----------------------------------------------------------------------===//
// CodeGenerationDiagnostics.cpp
//===----------------------------------------------------------------------===//

/// While it lives, reports the errors of LLVM's code generation of
/// `llvmModule`, translated from `module`, through MLIR's diagnostics: an
/// inline assembly the target's assembler refuses at its llvm.inline_asm
/// op, anything else as a plain error. LLVM's own handler would print
/// "<inline asm>:1:2" and exit the process.
class CodeGenerationDiagnostics {
public:
  CodeGenerationDiagnostics(mlir::ModuleOp module, llvm::Module &llvmModule);
  ~CodeGenerationDiagnostics();
  CodeGenerationDiagnostics(const CodeGenerationDiagnostics &) = delete;
  CodeGenerationDiagnostics &
  operator=(const CodeGenerationDiagnostics &) = delete;

  /// Whether an error was reported.
  bool hadErrors() const { return errors; }

private:
  struct Handler;

  void report(const llvm::DiagnosticInfo &info);
  /// The op a !srcloc cookie names, or an unknown location.
  mlir::Location getLocation(uint64_t cookie);

  llvm::LLVMContext &context;
  mlir::MLIRContext *mlirContext;
  /// The location of the op of each cookie, the first being cookie 1.
  std::vector<mlir::Location> locations;
  /// The errors reported, each once.
  llvm::StringSet<> reported;
  bool errors = false;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_COMPILER_COMPILERSTEPS_H
