//===- RunProgram.cpp - Loading and running a compiled program ------------===//
//
// Links the compiled program in the JIT with its GPU binaries, initializes
// the backend, runs the constructors (which load the GPU modules), calls
// the entry point, once or as a benchmark, and finalizes the backend, which
// reports what the program leaked.
//
//===----------------------------------------------------------------------===//

#include "runner/RunnerSteps.h"

#include "runner/Activity.h"
#include "runner/EntryData.h"
#include "runner/Jit.h"
#include "wrappers/Backend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

using llvm::StringRef;

namespace gpu_runner {

namespace {

/// Whether stdout was closed when the run started (and /dev/null, opened
/// read-only, took its place).
bool stdoutWasClosed = false;

/// Why stdout's buffer could not be written, the first time it could not.
int stdoutError = 0;

} // namespace

void flushProgramOutput() {
  errno = 0;
  if (std::fflush(stdout) != 0 && stdoutError == 0)
    stdoutError = errno;
  std::cout.flush();
  llvm::outs().flush();
}

void occupyClosedStandardStreams() {
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
      continue;
    // open returns the lowest free descriptor: this one. Writes to it fail,
    // and so do reads of stdin, as they would have on the closed one.
    int opened = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (opened != fd) {
      if (opened != -1)
        close(opened);
      continue;
    }
    if (fd == STDOUT_FILENO)
      stdoutWasClosed = true;
  }
}

llvm::LogicalResult checkProgramOutput() {
  flushProgramOutput();
  std::error_code streamError = llvm::outs().error();
  if (!std::ferror(stdout) && !std::cout.fail() && !llvm::outs().has_error())
    return llvm::success();
  // Else LLVM reports the stream's error as fatal when it is destroyed.
  llvm::outs().clear_error();
  std::clearerr(stdout);
  std::string why;
  if (stdoutWasClosed)
    why = "stdout is closed";
  else if (stdoutError != 0)
    why = std::strerror(stdoutError);
  else if (streamError)
    why = streamError.message();
  else
    why = "a write to stdout failed";
  fail("the program's output could not be written: " + why);
  return llvm::failure();
}

namespace {

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
  if (options.launch.empty())
    os << "benchmark: entry point '" << options.entryPoint << "'";
  else
    os << "benchmark: kernel '" << options.launch << "'";
  os << ", backend " << getBackendName(getBackend()) << "\n"
     << "  warm-up runs:    " << options.benchmarkWarmup << " (not timed)\n"
     << "  timed runs:      " << n << "\n"
     << "  compile:         " << ms(compileSeconds) << " (" << compileNote
     << "; not in the runs)\n"
     << "  load:            " << ms(loadSeconds) << " (not in the runs)\n"
     << "  time per run:    min " << time(runs.front()) << ", median "
     << time(median) << ", max " << time(runs.back()) << "\n";
  os.flush();
}

} // namespace

int runProgram(const CompiledProgram &program, Jit &jit,
               const RunnerOptions &options, EntryResult entryResult,
               RunTiming &timing, double compileSeconds, RunData &data) {
  if (options.dumpObjectFile) {
    std::string path = options.getObjectFilename();
    std::error_code error;
    llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
    if (error)
      return fail("cannot write the object file '" + path +
                  "': " + error.message());
    os << program.object;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error(); // else LLVM reports it as fatal
      return fail("cannot write the object file '" + path + "': " + message);
    }
  }

  Clock::time_point loadStart = Clock::now();
  void *entry;
  // The sizes of the GPU binaries, which the object reads.
  std::vector<uint64_t> binarySizes;
  binarySizes.reserve(program.gpuBinaries.size());
  for (const GpuBinary &binary : program.gpuBinaries)
    binarySizes.push_back(binary.object.size());
  {
    ScopedActivity activity("linking the program");
    std::unique_ptr<Phase> phase = timing.nest("JIT link");
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
    auto address =
        jit.lookup(program.signature ? StringRef(kPackedEntryName)
                                     : StringRef(options.entryPoint));
    if (!address)
      return fail(llvm::toString(address.takeError()));
    entry = *address;
  }
  if (options.compileOnly)
    return 0;
  // With data: the arguments are checked and made before anything runs.
  std::unique_ptr<EntryCall> call;
  void (*programFree)(void *) = nullptr;
  if (program.signature) {
    llvm::FailureOr<std::unique_ptr<EntryCall>> prepared =
        EntryCall::prepare(*program.signature, data, options);
    if (failed(prepared))
      return 1;
    call = std::move(*prepared);
    auto address = jit.lookup("free");
    if (!address)
      return fail(llvm::toString(address.takeError()));
    programFree = reinterpret_cast<void (*)(void *)>(*address);
  }
  // Each run's results are read and the program's memory given back; the
  // last run's are reported.
  std::vector<DataValue> results;
  bool resultsRead = true;
  auto readResults = [&] {
    flushProgramOutput();
    llvm::FailureOr<std::vector<DataValue>> taken =
        call->takeResults(programFree);
    if (failed(taken))
      resultsRead = false;
    else
      results = std::move(*taken);
  };
  {
    ScopedActivity activity("starting the backend");
    std::unique_ptr<Phase> phase = timing.nest("Backend initialization");
    std::string backendError;
    BackendOptions backendOptions;
    backendOptions.device = options.device;
    if (!initializeBackend(backendOptions, backendError))
      return fail(backendError);
  }
  {
    // The constructors load the GPU modules.
    ScopedActivity activity("running the program's global constructors");
    std::unique_ptr<Phase> phase = timing.nest("Module load (constructors)");
    if (llvm::Error error = jit.initialize())
      return fail(llvm::toString(std::move(error)));
  }
  double loadSeconds = secondsSince(loadStart);

  {
    ScopedActivity activity(kRunningActivity);
    std::unique_ptr<Phase> phase = timing.nest("Run");
    if (options.benchmarkRepetitions == 0) {
      if (call) {
        call->call(entry);
        readResults();
      } else {
        callEntryPoint(entry, entryResult);
      }
    } else {
      // Each run ends when the work it enqueued is done, as a run of
      // iree-benchmark-module does.
      std::vector<double> runs;
      unsigned total = options.benchmarkWarmup + options.benchmarkRepetitions;
      for (unsigned run = 0; run < total; ++run) {
        Clock::time_point start = Clock::now();
        if (call)
          call->call(entry);
        else
          callEntryPoint(entry, entryResult);
        synchronizeBackend();
        if (run >= options.benchmarkWarmup)
          runs.push_back(secondsSince(start));
        if (call)
          readResults();
      }
      printBenchmarkReport(options, compileSeconds,
                           "compile cache: " + timing.cacheStatus, loadSeconds,
                           std::move(runs));
    }
  }

  // Results that cannot be read, written or matched fail the run, once the
  // backend has been finalized like that of any run.
  bool dataFailed =
      !resultsRead || (call && failed(reportResults(*program.signature, results,
                                                    data, options)));

  ScopedActivity activity("finalizing the backend");
  std::unique_ptr<Phase> phase = timing.nest("Finalization");
  jit.shutDownAsyncRuntime();
  if (llvm::Error error = jit.deinitialize())
    return fail(llvm::toString(std::move(error)));
  finalizeBackend();
  return failed(checkProgramOutput()) || dataFailed ? 1 : 0;
}

} // namespace gpu_runner
