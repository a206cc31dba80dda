//===- Compiler.cpp - From a program's text to a compiled program ---------===//
//
// The compiler library's entry points (Compiler.h): the steps of
// CompilerSteps.h in order, each timed, and --timing's report.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/Compiler.h"

#include "runner/compiler/CompilerSteps.h"

#include "lowering/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

using namespace mlir;

namespace gpu_runner {

namespace {

/// A Phase over MLIR's timing manager.
class ScopedPhase final : public Phase {
public:
  explicit ScopedPhase(TimingScope scope) : scope(std::move(scope)) {}

  std::unique_ptr<Phase> nest(const char *name) override {
    return std::make_unique<ScopedPhase>(scope.nest(
        static_cast<const void *>(name), [name] { return std::string(name); }));
  }

  /// The scope `phase` times in: its own for a phase of the report, else
  /// `untimed`, which times nothing.
  static TimingScope &getScope(Phase &phase, TimingScope &untimed) {
    auto *scoped = dynamic_cast<ScopedPhase *>(&phase);
    return scoped ? scoped->scope : untimed;
  }

private:
  TimingScope scope;
};

/// MLIR's timing manager, telling a PhaseListener of each timer as it
/// starts and stops. The timers of one name under one parent are one timer,
/// started and stopped as often as the phase runs, on any thread.
class ListenedTimingManager final : public DefaultTimingManager {
public:
  explicit ListenedTimingManager(PhaseListener *listener)
      : listener(listener) {}

protected:
  void *nestTimer(void *handle, const void *id,
                  function_ref<std::string()> nameBuilder) override {
    void *nested = DefaultTimingManager::nestTimer(handle, id, nameBuilder);
    if (listener) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!names.count(nested))
        names.emplace(nested, nameBuilder());
    }
    return nested;
  }

  void startTimer(void *handle) override {
    DefaultTimingManager::startTimer(handle);
    if (!listener)
      return;
    std::string name;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = names.find(handle);
      if (it == names.end())
        return; // the root, which the runner's own phases divide
      name = it->second;
    }
    size_t phase = listener->beginPhase(name);
    std::lock_guard<std::mutex> lock(mutex);
    started[{handle, std::this_thread::get_id()}].push_back(phase);
  }

  void stopTimer(void *handle) override {
    DefaultTimingManager::stopTimer(handle);
    if (!listener)
      return;
    size_t phase;
    {
      std::lock_guard<std::mutex> lock(mutex);
      // A phase ends on the thread that began it, or, for a scope handed to
      // another thread (a kernel job's), on that one.
      auto it = started.find({handle, std::this_thread::get_id()});
      if (it == started.end() || it->second.empty())
        it = std::find_if(started.begin(), started.end(), [&](auto &entry) {
          return entry.first.first == handle && !entry.second.empty();
        });
      if (it == started.end())
        return;
      phase = it->second.back();
      it->second.pop_back();
    }
    listener->endPhase(phase);
  }

private:
  PhaseListener *listener;
  std::mutex mutex;
  std::map<void *, std::string> names;
  std::map<std::pair<void *, std::thread::id>, std::vector<size_t>> started;
};

/// --timing's report (MLIR's timing manager, in tree mode on stderr), and
/// --trace's phases.
class DefaultTimingReport : public TimingReport {
public:
  DefaultTimingReport(bool printed, PhaseListener *listener)
      : printed(printed), manager(listener) {
    manager.setEnabled(true);
    root.emplace(manager.getRootScope());
  }

  Phase &getRoot() override { return *root; }

  void print() override {
    root.reset(); // The manager prints only once no timer is in use.
    if (printed)
      manager.print();
    manager.setEnabled(false); // Else it prints again when destroyed.
  }

private:
  bool printed;
  ListenedTimingManager manager;
  std::optional<ScopedPhase> root;
};

/// Lowers `module`, on a GPU backend starting a job in `kernelJobs` for
/// each gpu.module it compiles apart, then compiles the host code into
/// `program`.
LogicalResult lowerAndCompileHostCode(ModuleOp module,
                                      llvm::MemoryBufferRef source,
                                      const CompileOptions &options,
                                      CompileTarget &jit, TimingScope &timing,
                                      std::vector<KernelJob> &kernelJobs,
                                      CompiledProgram &program) {
  // A missing entry point is reported after lowering, but what to run
  // instead is read here, while the kernels are still gpu.funcs.
  std::string entryHint;
  if (!module.lookupSymbol(options.entryPoint))
    entryHint = describeEntryCandidates(module);
  Backend backend = options.backend;
  const PipelineOptions &pipeline = options.pipeline;
  auto run = [&](auto build, bool printAfterAll, TimingScope &scope) {
    return runPipeline(
        module, [&](OpPassManager &pm) { build(pm, backend, pipeline); },
        printAfterAll, scope);
  };
  {
    options.setActivity("lowering the program");
    TimingScope lowerTiming = timing.nest("Lowering");
    if (backend == Backend::Host || options.printIRAfterAll) {
      // Everything in place, in order.
      if (failed(
              run(buildLoweringPipeline, options.printIRAfterAll, lowerTiming)))
        return failure();
    } else {
      if (failed(run(buildOutliningPipeline, false, lowerTiming)))
        return failure();
      kernelJobs = startKernelJobs(module, source, options, timing);
      if ((kernelJobs.empty() &&
           failed(run(buildKernelPipeline, false, lowerTiming))) ||
          failed(run(buildHostPipeline, false, lowerTiming)))
        return failure();
    }
  }
  if (options.printIRAfterLowering) {
    module->print(llvm::errs());
    llvm::errs() << "\n";
  }

  // The GPU binaries compiled apart, which the runner defines.
  llvm::StringSet<> provided;
  for (const KernelJob &job : kernelJobs) {
    provided.insert(getDeviceObjectGlobalName(job.name));
    provided.insert(getDeviceObjectSizeGlobalName(job.name));
    provided.insert(getKernelIRGlobalName(job.name));
    provided.insert(getKernelIRSizeGlobalName(job.name));
  }
  {
    TimingScope checkTiming = timing.nest("Entry point and externals check");
    if (failed(checkEntryPoint(module, options.entryPoint, options.entryResult,
                               options.entryResultFlag, options.withData,
                               entryHint)) ||
        failed(
            checkExternalSymbols(module, jit, provided, program.externals)) ||
        failed(checkGlobalSizes(module)))
      return failure();
  }

  if (jit.getDebugInfo()) {
    TimingScope debugInfoTiming = timing.nest("Debug info scopes");
    if (failed(addDebugInfoScopes(module, debugInfoTiming)))
      return failure();
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    options.setActivity("translating the program to LLVM IR");
    TimingScope translateTiming = timing.nest("Translation to LLVM IR");
    llvmModule =
        translateModuleToLLVMIR(module, llvmContext, options.inputFilename);
  }
  if (!llvmModule)
    return failure();
  if (program.signature) {
    if (llvm::Error error = addPackedEntry(*llvmModule, *program.signature)) {
      emitError(getModuleLocation(module))
          << "cannot call the entry point with data: "
          << llvm::toString(std::move(error));
      return failure();
    }
  }
  llvmModule->setDataLayout(jit.getDataLayout());
  llvmModule->setTargetTriple(jit.getTargetTriple());
  options.setActivity("generating code for the program");
  CodeGenerationDiagnostics diagnostics(module, *llvmModule);
  llvm::Expected<std::string> object = compileModule(*llvmModule, jit, timing);
  if (!object) {
    // Not an op's: a plain error, as MLIR prints one without a location.
    emitError(UnknownLoc::get(module.getContext()))
        << llvm::toString(object.takeError());
    return failure();
  }
  if (diagnostics.hadErrors())
    return failure();
  program.object = std::move(*object);
  return success();
}

FailureOr<CompiledProgram>
compileProgramTimed(std::unique_ptr<llvm::MemoryBuffer> input,
                    const CompileOptions &options, CompileTarget &jit,
                    TimingScope &timing) {
  TimingScope contextTiming = timing.nest("MLIR context set-up");
  DialectRegistry registry;
  registerProgramDialects(registry, options);
  MLIRContext context(registry);
  contextTiming.stop();
  // Diagnostics name the op and point at its line; a dump of the op in
  // generic form would only bury that.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module;
  {
    options.setActivity("parsing the program");
    TimingScope parseTiming = timing.nest("Parse");
    module = parseProgram(sourceMgr, context, !options.passes.empty());
  }
  if (!module)
    return failure();
  if (!options.passes.empty()) {
    options.setActivity("running the passes of --passes");
    TimingScope passesTiming = timing.nest("--passes");
    if (failed(runInputPasses(*module, options, passesTiming)))
      return failure();
  }
  FunctionType writtenEntryType;
  if (options.withData && !options.launch)
    writtenEntryType = getWrittenEntryType(*module, options.entryPoint);
  if (failed(runDefaultInputPasses(*module, options, timing)) ||
      failed(dropNestedModules(*module)))
    return failure();

  CompiledProgram program;
  if (options.launch && failed(addLaunchFunction(*module, *options.launch)))
    return failure();
  if (options.withData) {
    FailureOr<EntrySignature> signature =
        readEntrySignature(*module, options.entryPoint, writtenEntryType);
    if (failed(signature))
      return failure();
    program.signature = std::move(*signature);
    program.signature->resultsAreMemRefParams = options.launch.has_value();
  }
  std::vector<KernelJob> kernelJobs;
  LogicalResult host = lowerAndCompileHostCode(
      *module,
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getMemBufferRef(),
      options, jit, timing, kernelJobs, program);
  // Whatever became of the host code, the kernels' messages are printed.
  if (!kernelJobs.empty())
    options.setActivity("compiling the kernels");
  LogicalResult kernels = finishKernelJobs(kernelJobs, program);
  if (failed(host) || failed(kernels))
    return failure();
  return program;
}

/// Compiles on a thread with a stack of kCompilerStackBytes. Its phases
/// are timed under "Compile", which MLIR's timing manager, seeing them
/// come from another thread, reports as that phase's parts.
FailureOr<CompiledProgram>
compileProgram(std::unique_ptr<llvm::MemoryBuffer> input,
               const CompileOptions &options, CompileTarget &jit,
               Phase &timing) {
  TimingScope untimed;
  TimingScope compileTiming =
      ScopedPhase::getScope(timing, untimed).nest("Compile");
  FailureOr<CompiledProgram> result = failure();
  llvm::thread compiler(std::optional<unsigned>(kCompilerStackBytes), [&] {
    result = compileProgramTimed(std::move(input), options, jit, compileTiming);
  });
  compiler.join();
  return result;
}

llvm::Expected<std::string>
compileModuleTimed(llvm::Module &module, CompileTarget &target, Phase &timing) {
  TimingScope untimed;
  return compileModule(module, target, ScopedPhase::getScope(timing, untimed));
}

std::unique_ptr<TimingReport> createTimingReport(bool print,
                                                 PhaseListener *listener) {
  return std::make_unique<DefaultTimingReport>(print, listener);
}

const Compiler kCompiler = {compileProgram, compileModuleTimed,
                            createTimingReport};

} // namespace

} // namespace gpu_runner

/// What the runner looks up when it loads this library (loadCompiler).
extern "C" __attribute__((visibility("default"))) const gpu_runner::Compiler *
gpuRunnerGetCompiler() {
  return &gpu_runner::kCompiler;
}
