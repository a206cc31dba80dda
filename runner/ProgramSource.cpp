//===- ProgramSource.cpp - The compile cache, or the compiler -------------===//

#include "runner/ProgramSource.h"

#include "runner/Activity.h"
#include "runner/CompileCache.h"
#include "runner/CompilerLoader.h"
#include "runner/Jit.h"
#include "runner/RunnerError.h"
#include "wrappers/Backend.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace gpu_runner {
namespace {

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
                            const PipelineOptions &pipeline,
                            const RunData &data, const Jit &jit,
                            StringRef input) {
  std::vector<std::string> compilerFiles;
  if (std::string library = getCompilerLibraryPath(); !library.empty())
    compilerFiles.push_back(library);
  CacheKeyBuilder key;
  key.add("entry format", "2")
      .add("gpu-runner", GPU_RUNNER_VERSION)
      .add("build", getBuildIdentity(compilerFiles))
      .add("llvm", LLVM_VERSION_STRING)
      .add("backend", getBackendName(backend))
      .add("host target", jit.getTargetDescription())
      .add("-O", std::to_string(options.getOptLevel()))
      .add("-e", options.entryPoint)
      .add("--entry-point-result", options.callsWithData()
                                       ? "none: with data"
                                       : options.entryPointResult.getValue())
      .add("--launch", describeLaunch(data.launch))
      .add("input name", options.inputFilename)
      .add("barrier splitting", pipeline.splitBarriers ? "on" : "off")
      .add("subgroup vectors", pipeline.subgroupVectors ? "on" : "off")
      .add("--check", pipeline.checks.str())
      .add("--passes", options.passes);
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

/// Why this run compiles without the cache, or empty if it may use it.
std::string getCacheBypassReason(const RunnerOptions &options) {
  if (options.noCache)
    return "--no-cache";
  if (!options.llvmOption.empty())
    return "LLVM's " + options.llvmOption + " compiles afresh";
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
Expected<std::optional<CompileCache>>
openCompileCache(const RunnerOptions &options, std::string &status) {
  std::string bypass = getCacheBypassReason(options);
  if (!bypass.empty()) {
    status = "off (" + bypass + ")";
    return std::nullopt;
  }
  uint64_t maxSize = kDefaultCacheMaxSize;
  if (!options.cacheMaxSize.empty()) {
    Expected<uint64_t> size = parseCacheSize(options.cacheMaxSize);
    if (!size)
      return size.takeError();
    maxSize = *size;
  }
  bool chosen = !options.cacheDir.empty();
  std::string directory =
      chosen ? options.cacheDir.getValue() : getDefaultCacheDir();
  if (directory.empty()) {
    status = "off (no home folder to keep it in)";
    printWarning("no compile cache: there is no home folder (neither "
                 "$XDG_CACHE_HOME nor $HOME is an absolute path); set "
                 "--cache-dir or GPU_RUNNER_CACHE_DIR");
    return std::nullopt;
  }
  Expected<CompileCache> cache = CompileCache::open(directory, maxSize);
  if (cache)
    return std::optional<CompileCache>(std::move(*cache));
  std::string message = llvm::toString(cache.takeError());
  if (chosen)
    return makeError("--cache-dir: " + message);
  // The default folder is a convenience: the run goes on without it.
  printWarning("no compile cache: " + message +
               "; set --cache-dir, or --no-cache to run without it");
  status = "off (" + message + ")";
  return std::nullopt;
}

/// Loads the compiler and compiles the program in `input`.
Expected<CompiledProgram> compile(std::unique_ptr<llvm::MemoryBuffer> input,
                                  const RunnerOptions &options,
                                  EntryResult entryResult, Backend backend,
                                  const PipelineOptions &pipeline,
                                  const RunData &data, Jit &jit,
                                  RunTiming &timing) {
  CompileOptions compileOptions;
  compileOptions.backend = backend;
  compileOptions.pipeline = pipeline;
  compileOptions.inputFilename = options.inputFilename;
  compileOptions.entryPoint = options.entryPoint;
  compileOptions.entryResult = entryResult;
  compileOptions.entryResultFlag = options.entryPointResult;
  compileOptions.withData = options.callsWithData();
  if (data.launch) {
    compileOptions.launch = data.launch;
    compileOptions.entryPoint = kLaunchEntryName.str();
  }
  compileOptions.printIRAfterAll = options.printIRAfterAll;
  compileOptions.printIRAfterLowering = options.printIRAfterLowering;
  compileOptions.passes = options.passes;
  compileOptions.setActivity = &setActivity;
  ScopedActivity activity("loading the compiler");
  std::unique_ptr<Phase> loadPhase = timing.nest("Compiler load");
  Expected<const Compiler *> compiler = loadCompiler();
  loadPhase.reset();
  if (!compiler)
    return compiler.takeError();
  // The compiler has printed its diagnostics: only the status is left.
  llvm::FailureOr<CompiledProgram> program = (*compiler)->compileProgram(
      std::move(input), compileOptions, jit, timing.getRoot());
  if (failed(program))
    return llvm::make_error<AlreadyReported>();
  return std::move(*program);
}

} // namespace

Expected<CompiledProgram>
getCompiledProgram(std::unique_ptr<llvm::MemoryBuffer> input,
                   const RunnerOptions &options, EntryResult entryResult,
                   Backend backend, const PipelineOptions &pipeline,
                   const RunData &data, Jit &jit, RunTiming &timing) {
  Expected<std::optional<CompileCache>> cache =
      openCompileCache(options, timing.cacheStatus);
  if (!cache)
    return cache.takeError();
  if (!*cache)
    return compile(std::move(input), options, entryResult, backend, pipeline,
                   data, jit, timing);

  std::string key;
  CompileCache::Lookup found;
  {
    ScopedActivity activity("looking the program up in the compile cache");
    std::unique_ptr<Phase> phase = timing.nest("Cache lookup");
    key = computeCacheKey(options, backend, pipeline, data, jit,
                          input->getBuffer());
    found = (*cache)->lookup(key);
    // An external that no longer resolves is reported where the program
    // declares it, as a compile would.
    if (found.program &&
        !jit.findUnresolvedSymbols(found.program->externals).empty())
      found.program.reset();
  }
  std::string entryPath = (*cache)->getEntryPath(key);
  if (found.program) {
    timing.cacheStatus = "hit, " + entryPath;
    return std::move(*found.program);
  }
  if (!found.damage.empty())
    printWarning("the compile cache entry " + entryPath + " is damaged (" +
                 found.damage + "): compiling the program again");

  timing.cacheStatus = "miss, not stored: the program did not compile";
  Expected<CompiledProgram> program =
      compile(std::move(input), options, entryResult, backend, pipeline, data,
              jit, timing);
  if (!program)
    return program.takeError();
  ScopedActivity activity("storing the program in the compile cache");
  std::unique_ptr<Phase> phase = timing.nest("Cache store");
  std::string what = found.damage.empty() ? "miss" : "damaged entry replaced";
  if (Error error = (*cache)->store(key, *program)) {
    std::string message = llvm::toString(std::move(error));
    printWarning("cannot store the compiled program in the compile cache: " +
                 message);
    timing.cacheStatus = what + ", not stored: " + message;
  } else {
    timing.cacheStatus = what + ", stored as " + entryPath;
  }
  return program;
}

} // namespace gpu_runner
