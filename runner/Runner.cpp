//===- Runner.cpp - The gpu-runner command --------------------------------===//
//
// Read the program, find it in the compile cache or compile it (the
// compiler, runner/Compiler.h, is loaded only then), link it in the JIT,
// run it. Every step reports its errors as diagnostics with a location
// where there is one, and the first error stops the run with exit status 1.
//
//===----------------------------------------------------------------------===//

#include "runner/Runner.h"

#include "lowering/Targets.h"
#include "runner/CompileCache.h"
#include "runner/Compiler.h"
#include "runner/Jit.h"
#include "runner/Options.h"
#include "runner/Timeout.h"
#include "wrappers/Backend.h"

#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

// No MLIR library is linked here: a program found in the compile cache runs
// without loading libMLIR (see runner/Compiler.h). mlir::TimingScope is used
// through its inline functions only.
using llvm::failed;
using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::StringRef;
using llvm::success;
using llvm::Twine;
using mlir::TimingScope;

namespace gpu_runner {
namespace {

/// Prints "error: <message>" the way diagnostics without a location read.
int fail(const Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
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
      fail(Twine("--gpu-chip is for GPU backends; the ") +
           getBackendName(backend) + " backend runs kernels on the CPU");
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

void printVersion(llvm::raw_ostream &os) {
  os << "gpu-runner " << GPU_RUNNER_VERSION << "\n"
     << "  backend: " << getBackendName(getBackend()) << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n";
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

/// Flushes everything the program may have printed, in the order it printed
/// it: C stdio, C++ streams, then our own stream.
void flushProgramOutput() {
  std::fflush(stdout);
  std::cout.flush();
  llvm::outs().flush();
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

/// What --benchmark-repetitions reports: compile and load times, then the
/// time per timed run. The runs do not include compiling or loading.
void printBenchmarkReport(const RunnerOptions &options, double compileSeconds,
                          StringRef compileNote, double loadSeconds,
                          std::vector<double> runs) {
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
     << getBackendName(getBackend()) << "\n"
     << "  warm-up runs:    " << options.benchmarkWarmup << " (not timed)\n"
     << "  timed runs:      " << n << "\n"
     << "  compile:         " << ms(compileSeconds) << " (" << compileNote
     << "; not in the runs)\n"
     << "  load:            " << ms(loadSeconds) << " (not in the runs)\n"
     << "  time per run:    min " << time(runs.front()) << ", median "
     << time(median) << ", max " << time(runs.back()) << "\n";
  os.flush();
}

/// The --timing report: the time of each phase, in MLIR's timing manager,
/// which comes with the compiler, and what the compile cache did; printed on
/// stderr when the run ends. Without --timing its scopes time nothing.
class PhaseTimer {
public:
  explicit PhaseTimer(std::unique_ptr<TimingReport> report)
      : report(std::move(report)) {}

  ~PhaseTimer() {
    if (!report)
      return;
    flushProgramOutput();
    llvm::errs() << "compile cache: " << cacheStatus << "\n";
    report->print();
  }

  TimingScope &getRoot() { return report ? report->getRoot() : noTiming; }

  /// What the compile cache did, in a few words.
  std::string cacheStatus = "off";

private:
  std::unique_ptr<TimingReport> report;
  TimingScope noTiming;
};

/// The phase `name` (a string literal, whose address is its timer's
/// identity) under `parent`, made without MLIR's library.
TimingScope nestPhase(TimingScope &parent, const char *name) {
  return parent.nest(static_cast<const void *>(name),
                     [name] { return std::string(name); });
}

/// A file's identity for a cache key: its path, size and time, so that an
/// updated tool (ptxas, ld.lld) misses entries it did not compile.
std::string describeFile(const Twine &path) {
  return (path + " " + getFileStamp(path)).str();
}

/// Everything that decides the compiled program: the input, the flags that
/// change what is compiled, the backend, its target and tools, and the
/// builds of gpu-runner and LLVM. Not in it: what only matters when the
/// program runs (--shared-libs, --device beyond its chip, --timeout,
/// --benchmark-*), checked or applied on every run.
std::string computeCacheKey(const RunnerOptions &options, Backend backend,
                            const PipelineOptions &pipeline, const Jit &jit,
                            StringRef input) {
  std::vector<std::string> compilerFiles;
  if (std::string library = getCompilerLibraryPath(); !library.empty())
    compilerFiles.push_back(library);
  CacheKeyBuilder key;
  key.add("entry format", "1")
      .add("gpu-runner", GPU_RUNNER_VERSION)
      .add("build", getBuildIdentity(compilerFiles))
      .add("llvm", LLVM_VERSION_STRING)
      .add("backend", getBackendName(backend))
      .add("host target", jit.getTargetDescription())
      .add("-O", std::to_string(options.getOptLevel()))
      .add("-e", options.entryPoint)
      .add("--entry-point-result", options.entryPointResult)
      .add("input name", options.inputFilename)
      .add("barrier splitting", pipeline.splitBarriers ? "on" : "off")
      .add("--check-bounds", pipeline.checkBounds ? "on" : "off");
  if (backend == Backend::Cuda) {
    key.add("chip", pipeline.gpuChip)
        .add("features", pipeline.gpuFeatures)
        .add("ptxas",
             pipeline.cudaToolkitPath.empty()
                 ? "none"
                 : describeFile(pipeline.cudaToolkitPath + "/bin/ptxas"))
        .add("fatbinary",
             pipeline.cudaToolkitPath.empty()
                 ? "none"
                 : describeFile(pipeline.cudaToolkitPath + "/bin/fatbinary"));
  } else if (backend == Backend::Hip) {
    key.add("chip", pipeline.gpuChip)
        .add("device libraries",
             describeFile(pipeline.rocmPath + "/amdgcn/bitcode/ocml.bc"))
        .add("ld.lld", describeFile(pipeline.rocmPath + "/llvm/bin/ld.lld"));
  }
  return key.add("input", input).finish();
}

/// Loads the compiled program and runs its entry point; returns the exit
/// status. `compileSeconds` is what compiling took (or finding it in the
/// cache), for the benchmark report.
int runProgram(const CompiledProgram &program, Jit &jit,
               const RunnerOptions &options, EntryResult entryResult,
               PhaseTimer &timer, double compileSeconds) {
  TimingScope &root = timer.getRoot();
  if (options.dumpObjectFile) {
    std::string path = options.objectFilename.empty()
                           ? options.inputFilename + ".o"
                           : options.objectFilename.getValue();
    std::error_code error;
    llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
    if (error)
      return fail("cannot write the object file '" + path +
                  "': " + error.message());
    os << program.object;
  }

  Clock::time_point loadStart = Clock::now();
  void *entry;
  // The sizes of the GPU binaries, which the object reads.
  std::vector<uint64_t> binarySizes;
  for (const GpuBinary &binary : program.gpuBinaries)
    binarySizes.push_back(binary.object.size());
  {
    TimingScope linkTiming = nestPhase(root, "JIT link");
    std::vector<std::pair<std::string, const void *>> binarySymbols;
    for (auto [binary, size] : llvm::zip(program.gpuBinaries, binarySizes)) {
      binarySymbols.push_back(
          {getDeviceObjectGlobalName(binary.name), binary.object.data()});
      binarySymbols.push_back(
          {getDeviceObjectSizeGlobalName(binary.name), &size});
    }
    if (llvm::Error error = jit.defineSymbols(binarySymbols))
      return fail(llvm::toString(std::move(error)));
    if (llvm::Error error = jit.addObject(program.object))
      return fail(llvm::toString(std::move(error)));
    auto address = jit.lookup(options.entryPoint);
    if (!address)
      return fail(llvm::toString(address.takeError()));
    entry = *address;
  }
  if (options.compileOnly)
    return 0;
  {
    TimingScope backendTiming = nestPhase(root, "Backend initialization");
    std::string backendError;
    BackendOptions backendOptions;
    backendOptions.device = options.device;
    if (!initializeBackend(backendOptions, backendError))
      return fail(backendError);
  }
  {
    // The constructors load the GPU modules.
    TimingScope initTiming = nestPhase(root, "Module load (constructors)");
    if (llvm::Error error = jit.initialize())
      return fail(llvm::toString(std::move(error)));
  }
  double loadSeconds = secondsSince(loadStart);

  {
    TimingScope runTiming = nestPhase(root, "Run");
    if (options.benchmarkRepetitions == 0) {
      callEntryPoint(entry, entryResult);
    } else {
      // Each run ends when the work it enqueued is done, as a run of
      // iree-benchmark-module does.
      std::vector<double> runs;
      unsigned total = options.benchmarkWarmup + options.benchmarkRepetitions;
      for (unsigned run = 0; run < total; ++run) {
        Clock::time_point start = Clock::now();
        callEntryPoint(entry, entryResult);
        synchronizeBackend();
        if (run >= options.benchmarkWarmup)
          runs.push_back(secondsSince(start));
      }
      printBenchmarkReport(options, compileSeconds,
                           "compile cache: " + timer.cacheStatus, loadSeconds,
                           std::move(runs));
    }
  }

  TimingScope finishTiming = nestPhase(root, "Finalization");
  jit.shutDownAsyncRuntime();
  if (llvm::Error error = jit.deinitialize())
    return fail(llvm::toString(std::move(error)));
  finalizeBackend();
  return 0;
}

/// Why this run compiles without the cache, or empty if it may use it.
std::string getCacheBypassReason(const RunnerOptions &options) {
  if (options.noCache)
    return "--no-cache";
  // Flags whose output is made while compiling.
  if (options.printIRAfterAll)
    return "--print-ir-after-all compiles afresh";
  if (options.printIRAfterLowering)
    return "--print-ir-after-lowering compiles afresh";
  if (!options.dumpGpuBinary.empty())
    return "--dump-gpu-binary compiles afresh";
  return "";
}

/// Opens the cache this run uses, if any; `status` says why not. Fails
/// only when --cache-dir names a folder that cannot be used.
FailureOr<std::optional<CompileCache>>
openCompileCache(const RunnerOptions &options, std::string &status) {
  std::string bypass = getCacheBypassReason(options);
  if (!bypass.empty()) {
    status = "off (" + bypass + ")";
    return std::optional<CompileCache>();
  }
  uint64_t maxSize = kDefaultCacheMaxSize;
  if (!options.cacheMaxSize.empty()) {
    llvm::Expected<uint64_t> size = parseCacheSize(options.cacheMaxSize);
    if (!size) {
      fail(llvm::toString(size.takeError()));
      return failure();
    }
    maxSize = *size;
  }
  bool chosen = !options.cacheDir.empty();
  std::string directory =
      chosen ? options.cacheDir.getValue() : getDefaultCacheDir();
  if (directory.empty()) {
    status = "off (no home folder to keep it in)";
    llvm::errs() << "warning: no compile cache: there is no home folder; "
                    "set --cache-dir or GPU_RUNNER_CACHE_DIR\n";
    return std::optional<CompileCache>();
  }
  llvm::Expected<CompileCache> cache = CompileCache::open(directory, maxSize);
  if (cache)
    return std::optional<CompileCache>(std::move(*cache));
  std::string message = llvm::toString(cache.takeError());
  if (chosen) {
    fail("--cache-dir: " + message);
    return failure();
  }
  // The default folder is a convenience: the run goes on without it.
  llvm::errs() << "warning: no compile cache: " << message
               << "; set --cache-dir, or --no-cache to run without it\n";
  status = "off (" + message + ")";
  return std::optional<CompileCache>();
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
  if (options.noCache && (options.cacheDir.getNumOccurrences() ||
                          options.cacheMaxSize.getNumOccurrences()))
    return fail("--no-cache runs without the cache: drop --cache-dir and "
                "--cache-max-size, or --no-cache");

  // MLIR's timing manager comes with the compiler.
  std::unique_ptr<TimingReport> report;
  if (options.timing) {
    llvm::Expected<const Compiler *> compiler = loadCompiler();
    if (!compiler)
      return fail(llvm::toString(compiler.takeError()));
    report = (*compiler)->createTimingReport();
  }
  PhaseTimer timer(std::move(report));
  TimingScope &root = timer.getRoot();
  Clock::time_point compileStart = Clock::now();

  std::unique_ptr<llvm::MemoryBuffer> input;
  {
    TimingScope readTiming = nestPhase(root, "Read input");
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFileOrSTDIN(options.inputFilename);
    if (!file)
      return fail("cannot open input file '" + options.inputFilename +
                  "': " + file.getError().message());
    input = std::move(*file);
  }
  if (!checkInputIsMLIR(*input))
    return 1;

  Backend backend = getBackend();
  PipelineOptions pipelineOptions;
  pipelineOptions.splitBarriers = !options.noBarrierSplitting;
  pipelineOptions.checkBounds = options.checkBounds;
  pipelineOptions.dumpGpuBinaryDir = options.dumpGpuBinary;
  {
    TimingScope targetTiming = nestPhase(root, "Target selection");
    if (failed(choosePipelineTarget(backend, options, pipelineOptions)))
      return 1;
  }

  std::unique_ptr<Jit> jit;
  {
    TimingScope jitTiming = nestPhase(root, "JIT set-up");
    JitOptions jitOptions;
    jitOptions.optLevel = options.getOptLevel();
    jitOptions.sharedLibs.assign(options.sharedLibs.begin(),
                                 options.sharedLibs.end());
    auto created = Jit::create(jitOptions);
    if (!created)
      return fail(llvm::toString(created.takeError()));
    jit = std::move(*created);
  }

  FailureOr<std::optional<CompileCache>> cache =
      openCompileCache(options, timer.cacheStatus);
  if (failed(cache))
    return 1;
  std::string key;
  std::optional<CompiledProgram> program;
  std::string damage;
  if (*cache) {
    TimingScope lookupTiming = nestPhase(root, "Cache lookup");
    key = computeCacheKey(options, backend, pipelineOptions, *jit,
                          input->getBuffer());
    CompileCache::Lookup found = (*cache)->lookup(key);
    program = std::move(found.program);
    damage = std::move(found.damage);
    // An external that no longer resolves is reported where the program
    // declares it, as a compile would.
    if (program && !jit->findUnresolvedSymbols(program->externals).empty())
      program.reset();
  }
  std::string entryPath = *cache ? (*cache)->getEntryPath(key) : "";
  if (!damage.empty())
    llvm::errs() << "warning: the compile cache entry " << entryPath
                 << " is damaged (" << damage << "): compiling the program "
                 << "again\n";
  if (program) {
    timer.cacheStatus = "hit, " + entryPath;
  } else {
    CompileOptions compileOptions;
    compileOptions.backend = backend;
    compileOptions.pipeline = pipelineOptions;
    compileOptions.inputFilename = options.inputFilename;
    compileOptions.entryPoint = options.entryPoint;
    compileOptions.entryResult = *entryResult;
    compileOptions.entryResultFlag = options.entryPointResult;
    compileOptions.printIRAfterAll = options.printIRAfterAll;
    compileOptions.printIRAfterLowering = options.printIRAfterLowering;
    if (*cache)
      timer.cacheStatus = "miss, not stored: the program did not compile";
    TimingScope loadTiming = nestPhase(root, "Compiler load");
    llvm::Expected<const Compiler *> compiler = loadCompiler();
    loadTiming.stop();
    if (!compiler)
      return fail(llvm::toString(compiler.takeError()));
    FailureOr<CompiledProgram> compiled = (*compiler)->compileProgram(
        std::move(input), compileOptions, *jit, root);
    if (failed(compiled))
      return 1;
    program = std::move(*compiled);
    if (*cache) {
      TimingScope storeTiming = nestPhase(root, "Cache store");
      std::string what = damage.empty() ? "miss" : "damaged entry replaced";
      if (llvm::Error error = (*cache)->store(key, *program)) {
        std::string message = llvm::toString(std::move(error));
        llvm::errs() << "warning: cannot store the compiled program in the "
                     << "compile cache: " << message << "\n";
        timer.cacheStatus = what + ", not stored: " + message;
      } else {
        timer.cacheStatus = what + ", stored as " + entryPath;
      }
    }
  }
  return runProgram(*program, *jit, options, *entryResult, timer,
                    secondsSince(compileStart));
}

} // namespace gpu_runner
