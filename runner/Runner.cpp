//===- Runner.cpp - The gpu-runner command --------------------------------===//
//
// Read the program, find it in the compile cache or compile it (the
// compiler, runner/compiler/Compiler.h, is loaded only then), link it in
// the JIT, run it: the steps of OptionChecks.h, ProgramSource.h and
// RunProgram.h. Every step returns its errors, and runGpuRunnerMain alone
// prints them (RunnerError.h), with a location where there is one; the
// first error stops the run with exit status 1.
//
// No MLIR library is linked here: a program found in the compile cache
// runs without loading libMLIR.
//
//===----------------------------------------------------------------------===//

#include "runner/Runner.h"

#include "runner/Activity.h"
#include "runner/CompilerLoader.h"
#include "runner/EntryData.h"
#include "runner/Jit.h"
#include "runner/OptionChecks.h"
#include "runner/ProgramOutput.h"
#include "runner/ProgramSource.h"
#include "runner/RunProgram.h"
#include "runner/RunRecordOutput.h"
#include "runner/RunnerError.h"
#include "runner/SplitInput.h"
#include "runner/Timeout.h"
#include "wrappers/Backend.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

using llvm::Error;
using llvm::Expected;

namespace gpu_runner {

namespace {

/// The input file, or stdin for "-", up to `limitMiB` MiB (0: no limit):
/// a device such as /dev/zero, or a pipe, may never end.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInput(llvm::StringRef name, unsigned limitMiB) {
  namespace fs = llvm::sys::fs;
  uint64_t limit = static_cast<uint64_t>(limitMiB) << 20;
  auto tooLarge = [&](llvm::StringRef what) {
    return llvm::createStringError(
        "the input '" + name + "' " + what + " " + llvm::Twine(limitMiB) +
        " MiB, the most --max-input-size=" + llvm::Twine(limitMiB) + " allows");
  };
  bool isStdin = name == "-";
  llvm::Expected<fs::file_t> file =
      isStdin ? fs::getStdinHandle() : fs::openNativeFileForRead(name);
  if (!file)
    return llvm::createStringError("cannot open input file '" + name +
                                   "': " + llvm::toString(file.takeError()));
  llvm::scope_exit closeFile([&] {
    if (!isStdin)
      (void)fs::closeFile(*file);
  });
  fs::file_status status;
  if (std::error_code error = fs::status(*file, status))
    return llvm::createStringError("cannot read input file '" + name +
                                   "': " + error.message());
  if (!isStdin && status.type() == fs::file_type::regular_file) {
    if (limit && status.getSize() > limit)
      return tooLarge("is larger than");
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getOpenFile(*file, name, status.getSize());
    if (!buffer)
      return llvm::createStringError("cannot read input file '" + name +
                                     "': " + buffer.getError().message());
    return std::move(*buffer);
  }
  // A pipe or a device: read to its end, or just past the limit.
  llvm::SmallString<0> data;
  constexpr size_t kChunk = 1 << 16;
  while (true) {
    size_t size = data.size();
    data.resize_for_overwrite(size + kChunk);
    llvm::Expected<size_t> read = fs::readNativeFile(
        *file, llvm::MutableArrayRef<char>(data.data() + size, kChunk));
    if (!read)
      return llvm::createStringError("cannot read input file '" + name +
                                     "': " + llvm::toString(read.takeError()));
    data.truncate(size + *read);
    if (*read == 0)
      break;
    if (limit && data.size() > limit)
      return tooLarge("goes on past");
  }
  // Messages name stdin as MLIR's tools do.
  return llvm::MemoryBuffer::getMemBufferCopy(data, isStdin ? "<stdin>" : name);
}

void printVersion(llvm::raw_ostream &os) {
  os << "gpu-runner " << GPU_RUNNER_VERSION << "\n"
     << "  backend: " << getBackendName(getBackend()) << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n";
}

/// --list-devices.
Error listDevices() {
  Expected<std::string> text = describeDevices();
  if (!text)
    return text.takeError();
  llvm::outs() << *text;
  return Error::success();
}

/// --split-input-file: the part this process runs, when it is a child;
/// null in the process that ran the parts, once all did well.
Expected<std::unique_ptr<llvm::MemoryBuffer>>
runSplitParts(const RunnerOptions &options) {
  Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readInput(options.inputFilename, options.maxInputSize);
  if (!file)
    return file.takeError();
  if (Error error = checkInputIsMLIR(**file))
    return std::move(error);
  return runPartsInChildren(**file);
}

/// Times the phases of the run from now on, for --timing's report and
/// --trace's timeline.
Error startTiming(const RunnerOptions &options, RunTiming &timing) {
  bool traced = !options.trace.empty();
  if (!options.timing && !traced)
    return Error::success();
  // MLIR's timing manager comes with the compiler.
  Expected<const Compiler *> compiler = loadCompiler();
  if (!compiler)
    return compiler.takeError();
  timing.start(
      (*compiler)->createTimingReport(
          options.timing, traced ? &getRecordedPhaseListener() : nullptr),
      options.timing);
  return Error::success();
}

/// The JIT the program runs in.
Expected<std::unique_ptr<Jit>> createJit(const RunnerOptions &options,
                                         RunTiming &timing) {
  ScopedActivity activity("setting up the JIT");
  std::unique_ptr<Phase> phase = timing.nest("JIT set-up");
  JitOptions jitOptions;
  jitOptions.optLevel = options.getOptLevel();
  jitOptions.debugInfo = options.debugInfo;
  jitOptions.perfJitdump = options.perfJitdump;
  jitOptions.sharedLibs.assign(options.sharedLibs.begin(),
                               options.sharedLibs.end());
  return Jit::create(jitOptions);
}

/// The steps of a run up to the program linked in `jit` (made here) and
/// ready to start; null where there is nothing to run: --compile-only, or
/// the process that ran the parts of --split-input-file.
Expected<std::unique_ptr<ProgramRun>>
linkProgram(const RunnerOptions &options, Backend backend, const RunData &data,
            RunTiming &timing, std::unique_ptr<Jit> &jit) {
  // With --split-input-file each part goes on from here in a child process
  // of its own, as the whole input; this process returns once all have run.
  // The timeout, started before the data files were read, is each part's
  // own: the process that runs the parts has none.
  std::unique_ptr<llvm::MemoryBuffer> part;
  if (options.splitInputFile) {
    stopTimeout();
    Expected<std::unique_ptr<llvm::MemoryBuffer>> ownPart =
        runSplitParts(options);
    if (!ownPart)
      return ownPart.takeError();
    if (!*ownPart)
      return nullptr;
    part = std::move(*ownPart);
    if (options.timeout)
      startTimeout(options.timeout, getPartLocation(*part));
  }
  if (Error error = startTiming(options, timing))
    return std::move(error);
  Clock::time_point compileStart = Clock::now();

  std::unique_ptr<llvm::MemoryBuffer> input;
  {
    ScopedActivity activity("reading the input");
    std::unique_ptr<Phase> phase = timing.nest("Read input");
    Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        part ? std::move(part)
             : readInput(options.inputFilename, options.maxInputSize);
    if (!file)
      return file.takeError();
    input = std::move(*file);
  }
  if (Error error = checkInputIsMLIR(*input))
    return std::move(error);

  Expected<PipelineOptions> pipeline = [&] {
    std::unique_ptr<Phase> phase = timing.nest("Target selection");
    return choosePipeline(options, backend);
  }();
  if (!pipeline)
    return pipeline.takeError();
  Expected<std::unique_ptr<Jit>> created = createJit(options, timing);
  if (!created)
    return created.takeError();
  jit = std::move(*created);

  EntryResult entryResult = *parseEntryResult(options.entryPointResult);
  Expected<CompiledProgram> program =
      getCompiledProgram(std::move(input), options, entryResult, backend,
                         *pipeline, data, *jit, timing);
  if (!program)
    return program.takeError();
  Expected<std::unique_ptr<ProgramRun>> run =
      ProgramRun::link(std::move(*program), *jit, options, entryResult, timing,
                       secondsSince(compileStart));
  if (run && options.compileOnly)
    return nullptr;
  return run;
}

/// Compiles, links and runs the program; `ran` is false where nothing ran
/// (--compile-only, or the process that ran the parts of
/// --split-input-file).
int runProgram(const RunnerOptions &options, Backend backend, RunData &data,
               bool &ran) {
  // Made first and destroyed last: --timing's report follows everything
  // the run prints, its errors included.
  RunTiming timing;
  std::unique_ptr<Jit> jit;
  Expected<std::unique_ptr<ProgramRun>> run =
      linkProgram(options, backend, data, timing, jit);
  if (!run)
    return reportErrors(run.takeError());
  if (!*run) {
    ran = false;
    return 0;
  }
  if (Error error = (*run)->start(data))
    return reportErrors(std::move(error));
  // Results that cannot be read, written or matched fail the run, once the
  // backend has been finalized like that of any run; they are reported
  // first, as they are found first.
  int status = reportErrors((*run)->run());
  int benchmarked = reportErrors((*run)->reportBenchmark());
  if (status == 0)
    status = benchmarked;
  if (status == 0)
    status = reportErrors((*run)->reportResults(data));
  int finished = reportErrors((*run)->finish());
  return status != 0 ? status : finished;
}

} // namespace

int runGpuRunnerMain(int argc, char **argv) {
  occupyClosedStandardStreams();
  llvm::InitLLVM initLLVM(argc, argv);
  // After LLVM's handlers, which take SIGXFSZ too: a write past the file
  // size limit (ulimit -f) then fails with EFBIG, and is reported as a full
  // disk is, rather than ending the run with a file half written.
  std::signal(SIGXFSZ, SIG_IGN);
  installFatalErrorHandlers();
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
  options.llvmOption = findGivenLlvmOption(options, argc, argv);

  if (options.listDevices)
    return reportErrors(listDevices());
  // Without a file the program is read from stdin; from a terminal that
  // would wait, silently, for one to be typed.
  if (options.inputFilename.getNumOccurrences() == 0 &&
      llvm::sys::Process::StandardInIsUserInput()) {
    llvm::errs() << "error: no program to run\n"
                 << "usage: " << llvm::sys::path::filename(argv[0])
                 << " [flags] FILE   (FILE may be - to read the program "
                    "from stdin)\n"
                 << "--help lists the flags\n";
    return 1;
  }
  Backend backend = getBackend();
  if (Error error = checkOptions(options, backend))
    return reportErrors(std::move(error));
  // From here on, data files included: a FIFO may never be written.
  if (options.timeout)
    startTimeout(options.timeout);
  Expected<RunData> data = parseDataFlags(options);
  if (!data)
    return reportErrors(data.takeError());
  startRunRecordIfAsked(options);
  bool ran = true;
  int status = runProgram(options, backend, *data, ran);
  if (!ran)
    return status;
  int recorded = reportErrors(finishRunRecord(options));
  return status != 0 ? status : recorded;
}

} // namespace gpu_runner