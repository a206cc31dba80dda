//===- GpuRunnerFuzzer.cpp - libFuzzer target over parse, lower and JIT ---===//
//
// Feeds each input through what gpu-runner does before it runs a program:
// the same input check, parse and verify, the host backend's lowering
// pipeline (which verifies after every pass; with or without --check-bounds
// and barrier splitting), translation to LLVM IR and
// compilation by the same ORC JIT, down to machine code for every function.
// Nothing is executed: no global constructor and no entry point runs.
//
// Any diagnostic is a correct outcome; a crash, an abort (LLVM's fatal
// errors included), a sanitizer report or a hang is a bug. Built with
// -DGPU_RUNNER_BUILD_FUZZER=ON by scripts/fuzz.
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
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/thread.h"
#include "llvm/Support/xxhash.h"

#include <cstddef>
#include <cstdint>

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

/// Compiles `module` (lowered) with the runner's JIT, without running it.
void compile(ModuleOp module) {
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  // An error in inline assembly is a diagnostic of the context, whose
  // default handler exits the process; the runner accepts that (status 1),
  // the fuzzer must go on.
  llvmContext->setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *, void *) {}, nullptr);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *llvmContext, "fuzz");
  if (!llvmModule)
    return;
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
  options.checkBounds = hash & 1;
  options.splitBarriers = hash & 2;
  PassManager pm(&context);
  pm.enableVerifier(true);
  gpu_runner::buildLoweringPipeline(pm, gpu_runner::Backend::Host, options);
  if (failed(pm.run(*module)))
    return;
  compile(*module);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Inline assembly (llvm.inline_asm) is parsed when the JIT compiles it.
  llvm::InitializeNativeTargetAsmParser();
  getRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // On a stack as large as the runner's compiler thread has.
  llvm::thread worker(std::optional<unsigned>(gpu_runner::kCompilerStackBytes),
                      fuzzOne, text);
  worker.join();
  return 0;
}
