//===- Runner.cpp - The gpu-runner command --------------------------------===//
//
// Read the program, find it in the compile cache or compile it (the
// compiler, runner/compiler/Compiler.h, is loaded only then), link it in
// the JIT, run it: the steps of RunnerSteps.h. Every step reports its
// errors as diagnostics with a location where there is one, and the first
// error stops the run with exit status 1.
//
// No MLIR library is linked here: a program found in the compile cache
// runs without loading libMLIR.
//
//===----------------------------------------------------------------------===//

#include "runner/Runner.h"

#include "runner/Activity.h"
#include "runner/EntryData.h"
#include "runner/Jit.h"
#include "runner/RunnerSteps.h"
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

using llvm::FailureOr;

namespace gpu_runner {

RunTiming::RunTiming(std::unique_ptr<TimingReport> report)
    : report(std::move(report)) {}

RunTiming::~RunTiming() {
  if (!report)
    return;
  flushProgramOutput();
  llvm::errs() << "compile cache: " << cacheStatus << "\n";
  report->print();
}

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
      fs::closeFile(*file);
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

} // namespace

int runGpuRunnerMain(int argc, char **argv) {
  occupyClosedStandardStreams();
  llvm::InitLLVM initLLVM(argc, argv);
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

  if (options.listDevices) {
    std::string text, error;
    if (!describeDevices(text, error))
      return fail(error);
    llvm::outs() << text;
    return 0;
  }
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
  if (failed(checkOptions(options, backend)) ||
      failed(checkDataOptions(options)))
    return 1;
  FailureOr<RunData> data = parseRunData(options);
  if (failed(data))
    return 1;
  EntryResult entryResult = *parseEntryResult(options.entryPointResult);

  // With --split-input-file each part goes on from here in a child process
  // of its own, as the whole input; this process returns once all have run.
  std::unique_ptr<llvm::MemoryBuffer> part;
  if (options.splitInputFile) {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        readInput(options.inputFilename, options.maxInputSize);
    if (!file)
      return fail(llvm::toString(file.takeError()));
    if (!checkInputIsMLIR(**file))
      return 1;
    int status = 0;
    part = runPartsInChildren(**file, status);
    if (!part)
      return status;
  }
  if (options.timeout)
    startTimeout(options.timeout);

  // MLIR's timing manager comes with the compiler.
  std::unique_ptr<TimingReport> report;
  if (options.timing) {
    llvm::Expected<const Compiler *> compiler = loadCompiler();
    if (!compiler)
      return fail(llvm::toString(compiler.takeError()));
    report = (*compiler)->createTimingReport();
  }
  RunTiming timing(std::move(report));
  Clock::time_point compileStart = Clock::now();

  std::unique_ptr<llvm::MemoryBuffer> input;
  {
    ScopedActivity activity("reading the input");
    std::unique_ptr<Phase> phase = timing.nest("Read input");
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        part ? std::move(part)
             : readInput(options.inputFilename, options.maxInputSize);
    if (!file)
      return fail(llvm::toString(file.takeError()));
    input = std::move(*file);
  }
  if (!checkInputIsMLIR(*input))
    return 1;

  FailureOr<PipelineOptions> pipeline;
  {
    std::unique_ptr<Phase> phase = timing.nest("Target selection");
    pipeline = choosePipeline(options, backend);
    if (failed(pipeline))
      return 1;
  }

  std::unique_ptr<Jit> jit;
  {
    ScopedActivity activity("setting up the JIT");
    std::unique_ptr<Phase> phase = timing.nest("JIT set-up");
    JitOptions jitOptions;
    jitOptions.optLevel = options.getOptLevel();
    jitOptions.sharedLibs.assign(options.sharedLibs.begin(),
                                 options.sharedLibs.end());
    auto created = Jit::create(jitOptions);
    if (!created)
      return fail(llvm::toString(created.takeError()));
    jit = std::move(*created);
  }

  FailureOr<CompiledProgram> program = getCompiledProgram(
      std::move(input), options, entryResult, backend, *pipeline, *jit, timing);
  if (failed(program))
    return 1;
  return runProgram(*program, *jit, options, entryResult, timing,
                    secondsSince(compileStart), *data);
}

} // namespace gpu_runner
