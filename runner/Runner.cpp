//===- Runner.cpp - The gpu-runner command --------------------------------===//
//
// Parse, lower, translate, JIT, run. Every step reports its errors as
// diagnostics with a location where there is one, and the first error stops
// the run with exit status 1.
//
//===----------------------------------------------------------------------===//

#include "runner/Runner.h"

#include "lowering/Pipeline.h"
#include "runner/Jit.h"
#include "runner/Options.h"
#include "runner/Timeout.h"
#include "wrappers/Backend.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

using namespace mlir;

namespace gpu_runner {
namespace {

enum class EntryResult { Void, I32, I64, F32 };

std::optional<EntryResult> parseEntryResult(StringRef text) {
  return llvm::StringSwitch<std::optional<EntryResult>>(text)
      .Case("void", EntryResult::Void)
      .Case("i32", EntryResult::I32)
      .Case("i64", EntryResult::I64)
      .Case("f32", EntryResult::F32)
      .Default(std::nullopt);
}

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

/// Prints "error: <message>" the way diagnostics without a location read.
int fail(const Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

Backend getBackend() {
  StringRef name = backendName();
  if (name == "host")
    return Backend::Host;
  if (name == "cuda")
    return Backend::Cuda;
  if (name == "hip")
    return Backend::Hip;
  llvm::report_fatal_error("no lowering pipeline for backend " + name);
}

/// Chooses what kernels are compiled for on `backend`: --gpu-chip, else the
/// chip of the device that will run them, else the default; and the
/// toolkit that compiles them. Notes on stderr what the user may not expect.
LogicalResult choosePipelineTarget(Backend backend,
                                   const RunnerOptions &options,
                                   PipelineOptions &pipeline) {
  if (backend != Backend::Host && options.checkBounds) {
    fail("--check-bounds checks kernels run on the host backend: run the "
         "program with gpu-runner-host to check its accesses");
    return failure();
  }
  if (backend == Backend::Host) {
    if (!options.gpuChip.empty()) {
      fail("--gpu-chip is for GPU backends; the " + getBackendName(backend) +
           " backend runs kernels on the CPU");
      return failure();
    }
    return success();
  }
  pipeline.gpuOptLevel = options.getOptLevel();
  pipeline.dumpGpuBinaryDir = options.dumpGpuBinary;
  std::string chip = options.gpuChip;
  if (chip.empty()) {
    std::string deviceChip, error;
    if (queryDeviceChip(options.device, deviceChip, error))
      chip = deviceChip;
    else if (!options.compileOnly) {
      // Running needs the device: its error is the one to report.
      fail(error);
      return failure();
    } else {
      chip =
          (backend == Backend::Cuda ? kDefaultCudaChip : kDefaultHipChip).str();
    }
  }
  pipeline.gpuChip = chip;

  if (backend == Backend::Hip) {
    if (!isAmdgpuChip(chip)) {
      fail("--gpu-chip=" + chip +
           " is not an AMD GPU: use its gfx name, such as gfx90a or gfx942");
      return failure();
    }
    llvm::Expected<std::string> rocmPath = findRocmPath();
    if (!rocmPath) {
      fail("cannot compile kernels for " + chip + ": " +
           llvm::toString(rocmPath.takeError()));
      return failure();
    }
    pipeline.rocmPath = *rocmPath;
    return success();
  }

  pipeline.gpuFeatures = getPtxFeaturesForChip(chip);
  if (pipeline.gpuFeatures.empty()) {
    fail("--gpu-chip=" + chip +
         " is not a CUDA chip that CUDA 13 supports: use sm_75 or newer, "
         "such as sm_80, sm_90 or sm_90a");
    return failure();
  }
  pipeline.cudaToolkitPath = findCudaToolkit();
  if (pipeline.cudaToolkitPath.empty())
    llvm::errs() << "note: no ptxas found in $CUDA_PATH/bin or "
                    "/usr/local/cuda/bin: kernels are compiled to PTX, which "
                    "the driver compiles when loading them\n";
  return success();
}

void printVersion(raw_ostream &os) {
  os << "gpu-runner " << GPU_RUNNER_VERSION << "\n"
     << "  backend: " << backendName() << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n";
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

/// Text MLIR is UTF-8 without NUL bytes, and bytecode starts with its magic
/// number; anything else is reported here, before the parser tries to echo a
/// line of binary back at the user.
bool checkInputIsMLIR(const llvm::MemoryBuffer &input) {
  StringRef text = input.getBuffer();
  if (text.starts_with("ML\xefR"))
    return true;
  auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.begin());
  auto *end = reinterpret_cast<const llvm::UTF8 *>(text.end());
  const llvm::UTF8 *bad = begin;
  size_t offset = text.find('\0');
  if (!llvm::isLegalUTF8String(&bad, end))
    offset = std::min<size_t>(offset, bad - begin);
  if (offset == StringRef::npos)
    return true;
  StringRef before = text.take_front(offset);
  size_t line = before.count('\n') + 1;
  size_t column = offset - (before.rfind('\n') + 1) + 1;
  llvm::errs() << input.getBufferIdentifier() << ":" << line << ":" << column
               << ": error: the input is neither MLIR text nor MLIR "
               << "bytecode: byte " << offset << " is "
               << llvm::format_hex(static_cast<uint8_t>(text[offset]), 4)
               << "\n";
  return false;
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
/// is reported where it is declared.
LogicalResult checkExternalSymbols(ModuleOp module, Jit &jit) {
  bool ok = true;
  auto check = [&](Operation *op, StringRef name, StringRef kind) {
    if (name.starts_with("llvm.") ||
        SymbolTable::symbolKnownUseEmpty(op, module) ||
        jit.isExternalSymbolResolvable(name))
      return;
    op->emitError() << "unresolved external " << kind << " '" << name
                    << "': it is not defined in the program, and neither "
                       "gpu-runner's runtime, the MLIR runner utilities, the "
                       "C library nor a --shared-libs library provides it";
    ok = false;
  };
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (function.isExternal())
      check(function, function.getName(), "function");
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getLinkage() == LLVM::Linkage::External &&
        !global.getValueOrNull() && global.getInitializerRegion().empty())
      check(global, global.getSymName(), "global");
  return success(ok);
}

/// Flushes everything the program may have printed, in the order it printed
/// it: C stdio, C++ streams, then our own stream.
void flushProgramOutput() {
  std::fflush(stdout);
  std::cout.flush();
  llvm::outs().flush();
}

/// Runs the backend's pipeline on `module`; its diagnostics are printed by
/// the caller's handler.
LogicalResult lowerProgram(ModuleOp module, Backend backend,
                           const PipelineOptions &options, bool printAfterAll) {
  MLIRContext *context = module.getContext();
  PassManager pm(context);
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
  buildLoweringPipeline(pm, backend, options);

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

/// Calls the entry point and prints its result as mlir-runner does.
void callEntryPoint(void *entry, EntryResult result) {
  auto print = [](auto value) {
    flushProgramOutput();
    llvm::outs() << value << "\n";
  };
  switch (result) {
  case EntryResult::Void:
    reinterpret_cast<void (*)()>(entry)();
    flushProgramOutput();
    break;
  case EntryResult::I32:
    print(reinterpret_cast<int32_t (*)()>(entry)());
    break;
  case EntryResult::I64:
    print(reinterpret_cast<int64_t (*)()>(entry)());
    break;
  case EntryResult::F32:
    print(reinterpret_cast<float (*)()>(entry)());
    break;
  }
  llvm::outs().flush();
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// "1.234 ms": three decimals in the unit that fits `reference` seconds.
struct TimeUnit {
  const char *name;
  double perSecond;
};

TimeUnit unitFor(double reference) {
  if (reference < 1e-3)
    return {"us", 1e6};
  if (reference < 1.0)
    return {"ms", 1e3};
  return {"s", 1.0};
}

/// What --benchmark-repetitions reports: compile times, then the time per
/// timed run. The runs do not include compilation.
void printBenchmarkReport(const RunnerOptions &options, double lowerSeconds,
                          double jitSeconds, std::vector<double> runs) {
  std::sort(runs.begin(), runs.end());
  size_t n = runs.size();
  double median = n % 2 ? runs[n / 2] : (runs[n / 2 - 1] + runs[n / 2]) / 2;
  TimeUnit unit = unitFor(median);
  auto time = [&](double seconds) {
    return llvm::format("%.3f %s", seconds * unit.perSecond, unit.name);
  };
  auto ms = [](double seconds) {
    return llvm::format("%.3f ms", seconds * 1e3);
  };
  llvm::raw_ostream &os = llvm::errs();
  os << "benchmark: entry point '" << options.entryPoint << "', backend "
     << backendName() << "\n"
     << "  warm-up runs:    " << options.benchmarkWarmup << " (not timed)\n"
     << "  timed runs:      " << n << "\n"
     << "  parse and lower: " << ms(lowerSeconds) << " (not in the runs)\n"
     << "  JIT compile:     " << ms(jitSeconds) << " (not in the runs)\n"
     << "  time per run:    min " << time(runs.front()) << ", median "
     << time(median) << ", max " << time(runs.back()) << "\n";
  os.flush();
}

/// Compiles the lowered `module` and runs its entry point; returns the exit
/// status. `lowerSeconds` is what parsing and lowering took, for the
/// benchmark report.
int runProgram(ModuleOp module, const RunnerOptions &options,
               EntryResult entryResult, double lowerSeconds) {
  Clock::time_point jitStart = Clock::now();
  JitOptions jitOptions;
  jitOptions.optLevel = options.getOptLevel();
  jitOptions.sharedLibs.assign(options.sharedLibs.begin(),
                               options.sharedLibs.end());
  if (options.dumpObjectFile)
    jitOptions.objectDumpPath = options.objectFilename.empty()
                                    ? options.inputFilename + ".o"
                                    : options.objectFilename.getValue();
  auto jit = Jit::create(jitOptions);
  if (!jit)
    return fail(llvm::toString(jit.takeError()));
  if (failed(checkExternalSymbols(module, **jit)))
    return 1;

  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *llvmContext, options.inputFilename);
  if (!llvmModule)
    return 1;
  llvmModule->setDataLayout((*jit)->getDataLayout());
  llvmModule->setTargetTriple((*jit)->getTargetTriple());
  if (llvm::Error error =
          (*jit)->addModule(std::move(llvmModule), std::move(llvmContext)))
    return fail(llvm::toString(std::move(error)));

  // Looking the entry up compiles the program.
  auto entry = (*jit)->lookup(options.entryPoint);
  if (!entry)
    return fail(llvm::toString(entry.takeError()));
  if (options.compileOnly)
    return 0;
  std::string backendError;
  BackendOptions backendOptions;
  backendOptions.device = options.device;
  if (!initializeBackend(backendOptions, backendError))
    return fail(backendError);
  // Global constructors may already call the runtime (module loads).
  if (llvm::Error error = (*jit)->initialize())
    return fail(llvm::toString(std::move(error)));

  double jitSeconds = secondsSince(jitStart);

  if (options.benchmarkRepetitions == 0) {
    callEntryPoint(*entry, entryResult);
  } else {
    // Each run ends when the work it enqueued is done, as a run of
    // iree-benchmark-module does.
    std::vector<double> runs;
    unsigned total = options.benchmarkWarmup + options.benchmarkRepetitions;
    for (unsigned run = 0; run < total; ++run) {
      Clock::time_point start = Clock::now();
      callEntryPoint(*entry, entryResult);
      synchronizeBackend();
      if (run >= options.benchmarkWarmup)
        runs.push_back(secondsSince(start));
    }
    printBenchmarkReport(options, lowerSeconds, jitSeconds, std::move(runs));
  }

  if (llvm::Error error = (*jit)->deinitialize())
    return fail(llvm::toString(std::move(error)));
  finalizeBackend();
  return 0;
}

} // namespace

int runGpuRunnerMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // Inline assembly (llvm.inline_asm) is parsed when the JIT compiles it.
  llvm::InitializeNativeTargetAsmParser();

  RunnerOptions options;
  llvm::cl::HideUnrelatedOptions(options.category);
  llvm::cl::SetVersionPrinter(printVersion);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "gpu-runner: lower and run an MLIR program that uses the gpu dialect\n");

  if (options.listDevices) {
    std::string text, error;
    if (!describeDevices(text, error))
      return fail(error);
    llvm::outs() << text;
    return 0;
  }
  if (options.device < 0)
    return fail("--device=" + std::to_string(options.device) +
                " is negative; devices are numbered from 0");

  if (options.timeout)
    startTimeout(options.timeout);

  std::optional<EntryResult> entryResult =
      parseEntryResult(options.entryPointResult);
  if (!entryResult)
    return fail("--entry-point-result=" + options.entryPointResult +
                " is not one of void, i32, i64, f32");
  if (options.benchmarkWarmup.getNumOccurrences() &&
      options.benchmarkRepetitions == 0)
    return fail("--benchmark-warmup needs --benchmark-repetitions=N with N "
                "at least 1");
  Clock::time_point lowerStart = Clock::now();

  DialectRegistry registry;
  registerInputDialects(registry);
  MLIRContext context(registry);
  // Diagnostics name the op and point at its line; a dump of the op in
  // generic form would only bury that.
  context.printOpOnDiagnostic(false);

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(options.inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  if (!checkInputIsMLIR(*input))
    return 1;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module;
  {
    ParseDiagnostics parseDiagnostics(context, sourceMgr);
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  Backend backend = getBackend();
  PipelineOptions pipelineOptions;
  pipelineOptions.splitBarriers = !options.noBarrierSplitting;
  pipelineOptions.checkBounds = options.checkBounds;
  pipelineOptions.dumpGpuBinaryDir = options.dumpGpuBinary;
  if (!module ||
      failed(choosePipelineTarget(backend, options, pipelineOptions)) ||
      failed(lowerProgram(*module, backend, pipelineOptions,
                          options.printIRAfterAll)))
    return 1;
  if (options.printIRAfterLowering) {
    module->print(llvm::errs());
    llvm::errs() << "\n";
  }
  if (failed(checkEntryPoint(*module, options.entryPoint, *entryResult,
                             options.entryPointResult)))
    return 1;
  return runProgram(*module, options, *entryResult, secondsSince(lowerStart));
}

} // namespace gpu_runner
