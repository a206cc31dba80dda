//===- Compiler.cpp - From a program's text to a compiled program ---------===//

#include "runner/Compiler.h"

#include "lowering/GpuRuntimeToLLVM.h"
#include "lowering/Pipeline.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <future>
#include <optional>
#include <vector>

using namespace mlir;

namespace gpu_runner {

namespace {

Type getEntryResultType(MLIRContext *context, EntryResult result) {
  switch (result) {
  case EntryResult::Void:
    return LLVM::LLVMVoidType::get(context);
  case EntryResult::I32:
    return IntegerType::get(context, 32);
  case EntryResult::I64:
    return IntegerType::get(context, 64);
  case EntryResult::F32:
    return Float32Type::get(context);
  }
  llvm_unreachable("unknown entry result");
}

/// Names the pass that failed, for the rare pass that fails without saying
/// why.
class FailedPassNamer : public PassInstrumentation {
public:
  explicit FailedPassNamer(std::string &name) : name(name) {}
  void runAfterPassFailed(Pass *pass, Operation *) override {
    if (name.empty())
      name = pass->getArgument().str();
  }

private:
  std::string &name;
};

/// Where a diagnostic about the whole program points: the `module` op when
/// the file has one, else the start of the file (an implicit module has no
/// line of its own).
Location getModuleLocation(ModuleOp module) {
  auto fileLoc = dyn_cast<FileLineColLoc>(module.getLoc());
  if (fileLoc && fileLoc.getLine() == 0)
    return FileLineColLoc::get(fileLoc.getFilename(), 1, 1);
  return module.getLoc();
}

/// Improves three of the parser's messages, as a handler that sees every
/// diagnostic of the parse before the printing one does:
/// - an op or type of a dialect the context does not know: MLIR suggests
///   -allow-unregistered-dialect, which gpu-runner does not have; say which
///   dialects it accepts instead;
/// - an error at the end of the input: note that the input may be truncated;
/// - an error in bytecode, which has no line and column: at the file's start.
class ParseDiagnostics {
public:
  ParseDiagnostics(MLIRContext &context, llvm::SourceMgr &sourceMgr)
      : context(context), sourceMgr(sourceMgr),
        handler(&context, [this](Diagnostic &diag) { return handle(diag); }) {}

private:
  LogicalResult handle(Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    std::string message = diag.str();
    size_t cut = message.find(". If this is intended");
    if (cut != std::string::npos &&
        message.find("unregistered dialect") != std::string::npos) {
      InFlightDiagnostic better = emitError(diag.getLocation());
      better << message.substr(0, cut)
             << ": gpu-runner accepts ops and types of the dialects ";
      llvm::interleaveComma(context.getAvailableDialects(), better);
      return success(); // replaced by `better`, printed when it goes
    }
    auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation());
    if (fileLoc && fileLoc.getLine() == 0 && isBytecode()) {
      // The bytecode reader has no positions to give: the file's start.
      emitError(FileLineColLoc::get(fileLoc.getFilename(), 1, 1))
          << "invalid MLIR bytecode: " << message;
      return success();
    }
    if (isAtEndOfInput(diag.getLocation()))
      diag.attachNote() << "the input ends here: it may be truncated";
    return failure();
  }

  bool isBytecode() {
    return sourceMgr.getNumBuffers() != 0 &&
           sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
               ->getBuffer()
               .starts_with("ML\xefR");
  }

  /// Whether only white space follows `loc` in its buffer.
  bool isAtEndOfInput(Location loc) {
    auto fileLoc = dyn_cast<FileLineColLoc>(loc);
    if (!fileLoc || sourceMgr.getNumBuffers() == 0)
      return false;
    unsigned buffer = sourceMgr.getMainFileID();
    llvm::SMLoc position = sourceMgr.FindLocForLineAndColumn(
        buffer, fileLoc.getLine(), fileLoc.getColumn());
    if (!position.isValid())
      return false;
    StringRef text = sourceMgr.getMemoryBuffer(buffer)->getBuffer();
    size_t offset = position.getPointer() - text.data();
    return offset <= text.size() && text.drop_front(offset).trim().empty();
  }

  MLIRContext &context;
  llvm::SourceMgr &sourceMgr;
  ScopedDiagnosticHandler handler;
};

/// Checks that the entry point exists, is defined, takes no arguments and
/// returns what --entry-point-result says.
LogicalResult checkEntryPoint(ModuleOp module, StringRef name,
                              EntryResult result, StringRef resultFlag) {
  Operation *symbol = module.lookupSymbol(name);
  if (!symbol)
    return emitError(getModuleLocation(module))
           << "entry point '" << name << "' not found; name it with -e";
  auto function = dyn_cast<LLVM::LLVMFuncOp>(symbol);
  if (!function)
    return symbol->emitError()
           << "entry point '" << name << "' is not a function";
  if (function.isExternal())
    return function.emitError()
           << "entry point '" << name << "' is declared but not defined";
  LLVM::LLVMFunctionType type = function.getFunctionType();
  if (type.getNumParams() != 0 || type.isVarArg())
    return function.emitError()
           << "entry point '" << name << "' must take no arguments, but its "
           << "type is " << type;
  Type expected = getEntryResultType(module.getContext(), result);
  Type actual = type.getReturnType();
  if (actual != expected) {
    InFlightDiagnostic diag = function.emitError();
    diag << "entry point '" << name << "' returns ";
    if (isa<LLVM::LLVMVoidType>(actual))
      diag << "nothing";
    else
      diag << actual;
    return diag << ", but --entry-point-result=" << resultFlag << " was given";
  }
  return success();
}

/// Checks that every external function and global the program uses is
/// provided by the runtime, a library or the process, so that a missing one
/// is reported where it is declared; those in `provided` the runner defines
/// itself. Adds their names to `externals`.
LogicalResult checkExternalSymbols(ModuleOp module, CompileTarget &jit,
                                   const llvm::StringSet<> &provided,
                                   std::vector<std::string> &externals) {
  SmallVector<std::pair<Operation *, StringRef>> declarations;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (function.isExternal())
      declarations.push_back({function, "function"});
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getLinkage() == LLVM::Linkage::External &&
        !global.getValueOrNull() && global.getInitializerRegion().empty())
      declarations.push_back({global, "global"});
  // The symbols the program refers to, found in one walk.
  llvm::DenseSet<StringAttr> used;
  if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      used.insert(use.getSymbolRef().getRootReference());
  llvm::erase_if(declarations, [&](auto declaration) {
    StringAttr name = SymbolTable::getSymbolName(declaration.first);
    return name.getValue().starts_with("llvm.") || !used.contains(name) ||
           provided.contains(name.getValue());
  });
  for (auto [op, kind] : declarations)
    externals.push_back(SymbolTable::getSymbolName(op).str());

  std::vector<std::string> unresolved = jit.findUnresolvedSymbols(externals);
  for (auto [op, kind] : declarations) {
    StringRef name = SymbolTable::getSymbolName(op);
    if (!llvm::is_contained(unresolved, name))
      continue;
    op->emitError() << "unresolved external " << kind << " '" << name
                    << "': it is not defined in the program, and neither "
                       "gpu-runner's runtime, the MLIR runner utilities, the "
                       "C library nor a --shared-libs library provides it";
  }
  return success(unresolved.empty());
}

/// Runs the passes `build` adds on `module`, timed under `timing`; its
/// diagnostics are printed by the caller's handler.
LogicalResult runPipeline(ModuleOp module,
                          llvm::function_ref<void(OpPassManager &)> build,
                          bool printAfterAll, TimingScope &timing) {
  MLIRContext *context = module.getContext();
  PassManager pm(context);
  pm.enableTiming(timing);
  // Verify after every pass (the default, said here because it matters):
  // LLVM is built without assertions, so IR a pass broke must stop here
  // as a diagnostic, not crash or miscompile in a later pass.
  pm.enableVerifier(true);
  if (printAfterAll) {
    // The whole module after each step, in order.
    context->disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::errs());
  }
  std::string failedPass;
  pm.addInstrumentation(std::make_unique<FailedPassNamer>(failedPass));
  build(pm);

  // Count the errors the pipeline reports, to catch a silent failure.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return failure(); // Let the source manager's handler print it.
  });
  if (succeeded(pm.run(module)))
    return success();
  if (!errors)
    emitError(getModuleLocation(module))
        << "lowering failed in the '" << failedPass
        << "' pass without saying why";
  return failure();
}

/// Replaces the global array `arrayName` (llvm.global_ctors or
/// llvm.global_dtors) by a function `name` that calls its functions by
/// priority: lowest first for constructors, highest first for destructors.
void defineInitializerFunction(llvm::Module &module, StringRef arrayName,
                               StringRef name) {
  bool constructors = arrayName == "llvm.global_ctors";
  SmallVector<std::pair<unsigned, llvm::Function *>> calls;
  for (llvm::orc::CtorDtorIterator::Element element :
       constructors ? llvm::orc::getConstructors(module)
                    : llvm::orc::getDestructors(module))
    if (element.Func)
      calls.push_back({element.Priority, element.Func});
  std::stable_sort(
      calls.begin(), calls.end(), [&](const auto &a, const auto &b) {
        return constructors ? a.first < b.first : a.first > b.first;
      });
  if (llvm::GlobalVariable *array = module.getNamedGlobal(arrayName))
    array->eraseFromParent();

  llvm::LLVMContext &context = module.getContext();
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> builder(
      llvm::BasicBlock::Create(context, "entry", function));
  for (auto [priority, callee] : calls)
    builder.CreateCall(callee->getFunctionType(), callee);
  builder.CreateRetVoid();
}

/// Optimizes the program's LLVM IR `module` and compiles it to an object
/// for `target`, timing each under `timing`.
llvm::Expected<std::string> compileModule(llvm::Module &module,
                                          CompileTarget &target,
                                          TimingScope &timing) {
  defineInitializerFunction(module, "llvm.global_ctors", kInitFunctionName);
  defineInitializerFunction(module, "llvm.global_dtors", kFiniFunctionName);
  // Frames larger than a page touch each page on the way down, so that a
  // kernel whose private memory overflows a fiber's stack faults on the
  // guard page below it (which the host backend reports) rather than
  // jumping past it into other memory.
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");

  llvm::Expected<llvm::TargetMachine &> machine = target.getTargetMachine();
  if (!machine)
    return machine.takeError();
  {
    TimingScope optimizeTiming = timing.nest("LLVM optimization");
    auto optimize =
        makeOptimizingTransformer(target.getOptLevel(), 0, &*machine);
    if (llvm::Error error = optimize(&module))
      return std::move(error);
  }
  TimingScope codegenTiming = timing.nest("LLVM code generation");
  llvm::orc::SimpleCompiler compiler(*machine);
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> object = compiler(module);
  if (!object)
    return object.takeError();
  return (*object)->getBuffer().str();
}

/// --timing's report: MLIR's timing manager, in tree mode on stderr.
class DefaultTimingReport : public TimingReport {
public:
  DefaultTimingReport() {
    manager.setEnabled(true);
    root.emplace(manager.getRootScope());
  }

  TimingScope &getRoot() override { return *root; }

  void print() override {
    root.reset(); // The manager prints only once no timer is in use.
    manager.print();
    manager.setEnabled(false); // Else it prints again when destroyed.
  }

private:
  DefaultTimingManager manager;
  std::optional<TimingScope> root;
};

/// What compiling one gpu.module apart gave.
struct KernelResult {
  LogicalResult status = failure();
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

/// The format the kernel pipeline compiles gpu.modules to on `options`'
/// backend.
gpu::CompilationTarget getKernelObjectFormat(const CompileOptions &options) {
  if (options.backend == Backend::Cuda &&
      options.pipeline.cudaToolkitPath.empty())
    return gpu::CompilationTarget::Assembly;
  return options.backend == Backend::Cuda ? gpu::CompilationTarget::Fatbin
                                          : gpu::CompilationTarget::Binary;
}

/// Compiles the gpu.module in `bytecode` (a module holding it, as MLIR
/// bytecode) with the kernel pipeline. Its messages quote `source`.
KernelResult compileKernels(std::string bytecode, llvm::MemoryBufferRef source,
                            const CompileOptions &options,
                            TimingScope &timing) {
  KernelResult result;
  DialectRegistry registry;
  registerInputDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(source),
                               llvm::SMLoc());
  llvm::raw_string_ostream diagnosticStream(result.diagnostics);
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, diagnosticStream);

  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(bytecode, ParserConfig(&context));
  if (!module)
    return result;
  if (failed(runPipeline(
          *module,
          [&](OpPassManager &pm) {
            buildKernelPipeline(pm, options.backend, options.pipeline);
          },
          /*printAfterAll=*/false, timing)))
    return result;
  for (auto binary : module->getOps<gpu::BinaryOp>()) {
    GpuBinary compiled;
    compiled.name = binary.getName().str();
    compiled.object =
        getLoadableDeviceObject(cast<gpu::ObjectAttr>(binary.getObjects()[0]));
    result.binaries.push_back(std::move(compiled));
  }
  result.status = success();
  return result;
}

/// Moves each gpu.module of `module` out and starts compiling it on a
/// thread, leaving in its place a gpu.binary of the same name whose object
/// is provided when the program is loaded (kExternalObjectAttrName). Leaves
/// the program as it is, and starts nothing, where a gpu.module is not for
/// exactly one target.
std::vector<KernelJob> startKernelJobs(ModuleOp module,
                                       llvm::MemoryBufferRef source,
                                       const CompileOptions &options,
                                       TimingScope &timing) {
  std::vector<KernelJob> jobs;
  auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
  for (gpu::GPUModuleOp gpuModule : gpuModules)
    if (!gpuModule.getTargetsAttr() || gpuModule.getTargetsAttr().size() != 1)
      return jobs;

  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  for (gpu::GPUModuleOp gpuModule : gpuModules) {
    // The gpu.module, in a module of its own, as bytecode for the job.
    OwningOpRef<ModuleOp> holder = ModuleOp::create(gpuModule.getLoc());
    (*holder)->setAttrs(module->getAttrs());
    builder.setInsertionPointToEnd(holder->getBody());
    builder.clone(*gpuModule);
    std::string bytecode;
    llvm::raw_string_ostream os(bytecode);
    if (failed(writeBytecodeToFile(*holder, os)))
      return {};

    KernelJob job;
    job.name = gpuModule.getName().str();
    job.result =
        std::async(std::launch::async,
                   [bytecode = std::move(bytecode), source, &options,
                    scope = timing.nest("GPU kernel compilation")]() mutable {
                     KernelResult result = compileKernels(
                         std::move(bytecode), source, options, scope);
                     scope.stop(); // Not when the future that holds it goes.
                     return result;
                   });
    jobs.push_back(std::move(job));

    builder.setInsertionPoint(gpuModule);
    auto object = gpu::ObjectAttr::get(
        context, gpuModule.getTargetsAttr()[0], getKernelObjectFormat(options),
        builder.getStringAttr(""), DictionaryAttr(), gpu::KernelTableAttr());
    auto binary =
        gpu::BinaryOp::create(builder, gpuModule.getLoc(), gpuModule.getName(),
                              Attribute(), builder.getArrayAttr({object}));
    binary->setAttr(kExternalObjectAttrName, builder.getUnitAttr());
    gpuModule.erase();
  }
  return jobs;
}

/// Waits for the kernel jobs, prints their messages, and adds the binaries
/// they compiled to `program`.
LogicalResult finishKernelJobs(std::vector<KernelJob> &jobs,
                               CompiledProgram &program) {
  bool ok = true;
  for (KernelJob &job : jobs) {
    KernelResult result = job.result.get();
    llvm::errs() << result.diagnostics;
    ok &= succeeded(result.status);
    for (GpuBinary &binary : result.binaries)
      program.gpuBinaries.push_back(std::move(binary));
  }
  return success(ok);
}

/// Lowers `module`, on a GPU backend starting a job in `kernelJobs` for
/// each gpu.module it compiles apart, then compiles the host code into
/// `program`.
LogicalResult lowerAndCompileHostCode(ModuleOp module,
                                      llvm::MemoryBufferRef source,
                                      const CompileOptions &options,
                                      CompileTarget &jit, TimingScope &timing,
                                      std::vector<KernelJob> &kernelJobs,
                                      CompiledProgram &program) {
  Backend backend = options.backend;
  const PipelineOptions &pipeline = options.pipeline;
  auto run = [&](auto build, bool printAfterAll, TimingScope &scope) {
    return runPipeline(
        module, [&](OpPassManager &pm) { build(pm, backend, pipeline); },
        printAfterAll, scope);
  };
  {
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
  }
  {
    TimingScope checkTiming = timing.nest("Entry point and externals check");
    if (failed(checkEntryPoint(module, options.entryPoint, options.entryResult,
                               options.entryResultFlag)) ||
        failed(checkExternalSymbols(module, jit, provided, program.externals)))
      return failure();
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    TimingScope translateTiming = timing.nest("Translation to LLVM IR");
    llvmModule =
        translateModuleToLLVMIR(module, llvmContext, options.inputFilename);
  }
  if (!llvmModule)
    return failure();
  llvmModule->setDataLayout(jit.getDataLayout());
  llvmModule->setTargetTriple(jit.getTargetTriple());
  llvm::Expected<std::string> object = compileModule(*llvmModule, jit, timing);
  if (!object) {
    llvm::errs() << "error: " << llvm::toString(object.takeError()) << "\n";
    return failure();
  }
  program.object = std::move(*object);
  return success();
}

} // namespace

FailureOr<CompiledProgram>
compileProgram(std::unique_ptr<llvm::MemoryBuffer> input,
               const CompileOptions &options, CompileTarget &jit,
               TimingScope &timing) {
  TimingScope contextTiming = timing.nest("MLIR context set-up");
  DialectRegistry registry;
  registerInputDialects(registry);
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
    TimingScope parseTiming = timing.nest("Parse");
    ParseDiagnostics parseDiagnostics(context, sourceMgr);
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (!module)
    return failure();

  CompiledProgram program;
  std::vector<KernelJob> kernelJobs;
  LogicalResult host = lowerAndCompileHostCode(
      *module,
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getMemBufferRef(),
      options, jit, timing, kernelJobs, program);
  // Whatever became of the host code, the kernels' messages are printed.
  LogicalResult kernels = finishKernelJobs(kernelJobs, program);
  if (failed(host) || failed(kernels))
    return failure();
  return program;
}

namespace {

std::unique_ptr<TimingReport> createTimingReport() {
  return std::make_unique<DefaultTimingReport>();
}

const Compiler kCompiler = {compileProgram, compileModule, createTimingReport};

} // namespace

} // namespace gpu_runner

/// What the runner looks up when it loads this library (loadCompiler).
extern "C" __attribute__((visibility("default"))) const gpu_runner::Compiler *
gpuRunnerGetCompiler() {
  return &gpu_runner::kCompiler;
}
