//===- GpuRunnerFuzzer.cpp - libFuzzer target over parse, lower and JIT ---===//
//
// Feeds each input through what gpu-runner does before it runs a program:
// the same input check, parse and verify, the host backend's lowering
// pipeline (which verifies after every pass; with or without --check-bounds
// and barrier splitting), translation to LLVM IR and
// compilation by the same ORC JIT, down to machine code for every function.
// Nothing is executed: no global constructor and no entry point runs.
//
// Any diagnostic is a correct outcome; a crash, an abort, a sanitizer
// report or a hang is a bug. An LLVM fatal error is what the runner reports
// as "error: LLVM cannot go on while ..." with exit status 1: contained,
// but a check the runner lacks before it. The fuzzer gives up on that input
// and goes on, and keeps the input in $GPU_RUNNER_FUZZ_FATAL_DIR when set.
// Built with -DGPU_RUNNER_BUILD_FUZZER=ON by scripts/fuzz.
//
//===----------------------------------------------------------------------===//

#include "lowering/Pipeline.h"
#include "runner/Jit.h"
#include "runner/compiler/Compiler.h"
#include "runner/compiler/CompilerSteps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/thread.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace mlir;

extern "C" const gpu_runner::Compiler *gpuRunnerGetCompiler();

namespace {

mlir::DialectRegistry &getRegistry() {
  static mlir::DialectRegistry *registry = [] {
    auto *result = new mlir::DialectRegistry();
    gpu_runner::registerInputDialects(*result);
    return result;
  }();
  return *registry;
}

/// The runner refuses input that is neither UTF-8 text without NUL bytes nor
/// MLIR bytecode before parsing; so does the fuzzer, to spend its time on
/// what reaches the parser.
bool looksLikeMLIR(llvm::StringRef text) {
  if (text.starts_with("ML\xefR"))
    return true;
  if (text.contains('\0'))
    return false;
  auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.begin());
  auto *end = reinterpret_cast<const llvm::UTF8 *>(text.end());
  return llvm::isLegalUTF8String(&begin, end);
}

/// Where an input's worker thread goes back to when LLVM has a fatal error.
thread_local std::jmp_buf *fatalErrorReturn = nullptr;
/// The input being compiled, kept where LLVM's fatal error leaves it.
thread_local llvm::StringRef currentInput;
/// How many inputs ended in an LLVM fatal error.
std::atomic<uint64_t> fatalErrors{0};

/// Writes the input that made LLVM give up to $GPU_RUNNER_FUZZ_FATAL_DIR.
void keepFatalInput(const char *reason) {
  const char *directory = std::getenv("GPU_RUNNER_FUZZ_FATAL_DIR");
  std::fprintf(stderr, "fuzz: LLVM fatal error (contained): %s\n", reason);
  if (!directory)
    return;
  std::string path = (llvm::Twine(directory) + "/fatal-" +
                      llvm::utohexstr(llvm::xxh3_64bits(currentInput)))
                         .str();
  if (FILE *file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(currentInput.data(), 1, currentInput.size(), file);
    std::fclose(file);
  }
}

/// LLVM's fatal error handler: abandons the input, leaking what it held.
void onFatalError(void *, const char *reason, bool) {
  if (!fatalErrorReturn) {
    std::fprintf(stderr, "fuzz: LLVM fatal error outside an input: %s\n",
                 reason);
    std::abort();
  }
  ++fatalErrors;
  keepFatalInput(reason);
  std::longjmp(*fatalErrorReturn, 1);
}

/// Compiles `module` (lowered) with the runner's JIT, without running it.
void compile(ModuleOp module) {
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *llvmContext, "fuzz");
  if (!llvmModule)
    return;
  // The runner's handler of code generation errors (inline assembly), whose
  // diagnostics the input's handler drops.
  gpu_runner::CodeGenerationDiagnostics diagnostics(module, *llvmModule);
  auto jit = gpu_runner::Jit::create(gpu_runner::JitOptions());
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return;
  }
  llvmModule->setDataLayout((*jit)->getDataLayout());
  llvmModule->setTargetTriple((*jit)->getTargetTriple());
  SmallVector<std::string> functions;
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration() && !function.hasLocalLinkage())
      functions.push_back(function.getName().str());
  gpu_runner::UntimedPhase timing;
  llvm::Expected<std::string> object =
      gpuRunnerGetCompiler()->compileModule(*llvmModule, **jit, timing);
  if (!object) {
    llvm::consumeError(object.takeError());
    return;
  }
  if (llvm::Error error = (*jit)->addObject(*object)) {
    llvm::consumeError(std::move(error));
    return;
  }
  // Looking a function up links the whole object; a symbol nothing
  // provides fails the lookup, which is a correct outcome.
  for (const std::string &name : functions) {
    auto address = (*jit)->lookup(name);
    if (!address) {
      llvm::consumeError(address.takeError());
      return;
    }
  }
}

/// What the runner's compiler does with `text`, short of running it.
void fuzzOne(llvm::StringRef text) {
  if (!looksLikeMLIR(text))
    return;

  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  // Diagnostics are the expected outcome of most inputs: drop them.
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = gpu_runner::parseProgram(sourceMgr, context);
  if (!module)
    return;

  // The runner's flags that change the pipeline, chosen by the input's hash
  // so that a crash reproduces from the input alone.
  uint64_t hash = llvm::xxh3_64bits(text);
  gpu_runner::PipelineOptions options;
  if (hash & 1)
    options.checks.add(Check::Memcheck);
  options.splitBarriers = hash & 2;
  PassManager pm(&context);
  pm.enableVerifier(true);
  gpu_runner::buildLoweringPipeline(pm, gpu_runner::Backend::Host, options);
  if (failed(pm.run(*module)) || failed(gpu_runner::checkGlobalSizes(*module)))
    return;
  compile(*module);
}

/// fuzzOne, from which an LLVM fatal error returns here.
void fuzzOneContained(llvm::StringRef text) {
  std::jmp_buf fatalError;
  currentInput = text;
  fatalErrorReturn = &fatalError;
  if (setjmp(fatalError) == 0)
    fuzzOne(text);
  fatalErrorReturn = nullptr;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Inline assembly (llvm.inline_asm) is parsed when the JIT compiles it.
  llvm::InitializeNativeTargetAsmParser();
  getRegistry();
  llvm::install_fatal_error_handler(onFatalError);
  std::atexit([] {
    std::fprintf(stderr, "fuzz: %llu runs ended in an LLVM fatal error\n",
                 static_cast<unsigned long long>(fatalErrors.load()));
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // On a stack as large as the runner's compiler thread has.
  llvm::thread worker(std::optional<unsigned>(gpu_runner::kCompilerStackBytes),
                      fuzzOneContained, text);
  worker.join();
  return 0;
}
