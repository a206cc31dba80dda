//===- RunProgram.cpp - Loading and running a compiled program ------------===//

#include "runner/RunProgram.h"

#include "runner/Activity.h"
#include "runner/Jit.h"
#include "runner/ProgramOutput.h"
#include "runner/RunnerError.h"
#include "wrappers/Backend.h"
#include "wrappers/RunRecord.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace gpu_runner {

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

/// The CPU time the process has used, in seconds.
double getProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9;
}

/// The time on the device of the launches among the recorded ops
/// [begin, end), in seconds; nothing if one was not timed.
std::optional<double> getLaunchSeconds(const RunRecordSnapshot &record,
                                       size_t begin, size_t end) {
  // Past the entries the record keeps, the launches are not there.
  if (end > record.entries.size())
    return std::nullopt;
  int64_t nanoseconds = 0;
  bool launched = false;
  for (size_t index = begin; index < end; ++index) {
    const RecordedEntry &entry = record.entries[index];
    if (entry.kind != RecordKind::Launch)
      continue;
    if (!entry.deviceBeginNs || !entry.deviceEndNs)
      return std::nullopt;
    nanoseconds += entry.deviceEndNs - entry.deviceBeginNs;
    launched = true;
  }
  if (!launched)
    return std::nullopt;
  return static_cast<double>(nanoseconds) * 1e-9;
}

/// Writes the object for --dump-object-file.
Error writeObjectFile(const RunnerOptions &options, StringRef object) {
  std::string path = options.getObjectFilename();
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return makeError("cannot write the object file '" + path +
                     "': " + error.message());
  os << object;
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error(); // else LLVM reports it as fatal
    return makeError("cannot write the object file '" + path + "': " + message);
  }
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<ProgramRun>>
ProgramRun::link(CompiledProgram compiled, Jit &jit,
                 const RunnerOptions &options, EntryResult entryResult,
                 RunTiming &timing, double compileSeconds) {
  if (options.dumpObjectFile)
    if (Error error = writeObjectFile(options, compiled.object))
      return std::move(error);

  std::unique_ptr<ProgramRun> run(new ProgramRun(
      std::move(compiled), jit, options, entryResult, timing, compileSeconds));
  const CompiledProgram &program = run->program;
  run->loadStart = Clock::now();
  run->binarySizes.reserve(program.gpuBinaries.size());
  run->kernelIRSizes.reserve(program.gpuBinaries.size());
  for (const GpuBinary &binary : program.gpuBinaries) {
    run->binarySizes.push_back(binary.object.size());
    run->kernelIRSizes.push_back(binary.kernelIR.size());
  }
  ScopedActivity activity("linking the program");
  std::unique_ptr<Phase> phase = timing.nest("JIT link");
  std::vector<std::pair<std::string, const void *>> binarySymbols;
  for (auto [binary, size, irSize] :
       llvm::zip(program.gpuBinaries, run->binarySizes, run->kernelIRSizes)) {
    binarySymbols.push_back(
        {getDeviceObjectGlobalName(binary.name), binary.object.data()});
    binarySymbols.push_back(
        {getDeviceObjectSizeGlobalName(binary.name), &size});
    // Read only on CUDA, where the loader gives the IR to the module.
    binarySymbols.push_back(
        {getKernelIRGlobalName(binary.name), binary.kernelIR.data()});
    binarySymbols.push_back({getKernelIRSizeGlobalName(binary.name), &irSize});
  }
  if (Error error = jit.defineSymbols(binarySymbols))
    return std::move(error);
  if (Error error = jit.addObject(program.object))
    return std::move(error);
  Expected<void *> address =
      jit.lookup(program.signature ? StringRef(kPackedEntryName)
                                   : StringRef(options.entryPoint));
  if (!address)
    return address.takeError();
  run->entry = *address;
  return std::move(run);
}

Error ProgramRun::start(RunData &data) {
  // With data: the arguments are checked and made before anything runs.
  if (program.signature) {
    Expected<std::unique_ptr<EntryCall>> prepared =
        EntryCall::prepare(*program.signature, data, options);
    if (!prepared)
      return prepared.takeError();
    call = std::move(*prepared);
    Expected<void *> address = jit.lookup("free");
    if (!address)
      return address.takeError();
    programFree = reinterpret_cast<void (*)(void *)>(*address);
  }
  {
    ScopedActivity activity("starting the backend");
    std::unique_ptr<Phase> phase = timing.nest("Backend initialization");
    BackendOptions backendOptions;
    backendOptions.device = options.device;
    backendOptions.checks = options.getChecks();
    if (Error error = initializeBackend(backendOptions))
      return error;
  }
  {
    // The constructors load the GPU modules.
    ScopedActivity activity("running the program's global constructors");
    std::unique_ptr<Phase> phase = timing.nest("Module load (constructors)");
    if (Error error = jit.initialize())
      return error;
  }
  loadSeconds = secondsSince(loadStart);
  return Error::success();
}

Error ProgramRun::run() {
  ScopedActivity activity(kRunningActivity);
  std::unique_ptr<Phase> phase = timing.nest("Run");
  // Each call's results are read and the program's memory given back.
  Error errors = Error::success();
  auto readResults = [&] {
    flushProgramOutput();
    Expected<std::vector<DataValue>> taken = call->takeResults(programFree);
    if (taken)
      results = std::move(*taken);
    else
      errors = llvm::joinErrors(std::move(errors), taken.takeError());
  };
  if (options.benchmarkRepetitions == 0) {
    if (call) {
      call->call(entry);
      readResults();
    } else {
      callEntryPoint(entry, entryResult);
    }
    return errors;
  }
  // Each run ends when the work it enqueued is done, as a run of
  // iree-benchmark-module does.
  unsigned total = options.benchmarkWarmup + options.benchmarkRepetitions;
  bool timesLaunches = !options.launch.empty() && isRunRecorded();
  for (unsigned index = 0; index < total; ++index) {
    bool timed = index >= options.benchmarkWarmup;
    if (timed && timesLaunches)
      recordedRunStarts.push_back(countRecordedEntries());
    double cpuStart = getProcessCpuSeconds();
    Clock::time_point start = Clock::now();
    if (call)
      call->call(entry);
    else
      callEntryPoint(entry, entryResult);
    synchronizeBackend();
    if (timed) {
      benchmark.wall.push_back(secondsSince(start));
      benchmark.cpu.push_back(getProcessCpuSeconds() - cpuStart);
    }
    if (call)
      readResults();
  }
  if (timesLaunches)
    recordedRunStarts.push_back(countRecordedEntries());
  return errors;
}

Error ProgramRun::reportBenchmark() {
  if (options.benchmarkRepetitions == 0)
    return Error::success();
  benchmark.compileSeconds = compileSeconds;
  benchmark.cacheStatus = timing.cacheStatus;
  benchmark.loadSeconds = loadSeconds;
  // Each run's launches, from the record's device times; all runs or none.
  if (recordedRunStarts.size() > 1) {
    RunRecordSnapshot record = takeRunRecordSnapshot();
    std::vector<double> kernel;
    for (size_t run = 0; run + 1 < recordedRunStarts.size(); ++run) {
      std::optional<double> seconds = getLaunchSeconds(
          record, recordedRunStarts[run], recordedRunStarts[run + 1]);
      if (!seconds)
        break;
      kernel.push_back(*seconds);
    }
    if (kernel.size() == benchmark.wall.size())
      benchmark.kernel = std::move(kernel);
    else
      benchmark.kernelMissing = true;
  }
  printBenchmarkReport(options, benchmark);
  return writeBenchmarkOut(options, benchmark);
}

Error ProgramRun::reportResults(const RunData &data) const {
  if (!call)
    return Error::success();
  return gpu_runner::reportResults(*program.signature, results, data, options);
}

Error ProgramRun::finish() {
  ScopedActivity activity("finalizing the backend");
  std::unique_ptr<Phase> phase = timing.nest("Finalization");
  jit.shutDownAsyncRuntime();
  if (Error error = jit.deinitialize())
    return error;
  unsigned findings = finalizeBackend();
  if (Error error = checkProgramOutput())
    return error;
  // Each finding was printed where it was found, and the summary after.
  if (findings)
    return llvm::make_error<AlreadyReported>();
  return Error::success();
}

} // namespace gpu_runner
