//===- OptionChecks.cpp - What the flags and the input must be ------------===//

#include "runner/OptionChecks.h"

#include "runner/OutputFile.h"
#include "runner/RunnerError.h"
#include "runner/compiler/Compiler.h"
#include "wrappers/Backend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include <unistd.h>

using llvm::Error;
using llvm::StringRef;
using llvm::Twine;

namespace gpu_runner {

namespace {

/// Whether writing `path` would overwrite the input: the same file by
/// whatever name (./a.mlir, a hard link, a symbolic link, stdin redirected
/// from it), compared by device and inode, as compilers compare their
/// output with their input. Checked before the input is read or the file
/// opened, which truncates it: for --dump-object-file and --output.
bool overwritesInput(const Twine &path, const RunnerOptions &options) {
  namespace fs = llvm::sys::fs;
  fs::file_status output, input;
  if (fs::status(path, output))
    return false; // Not there yet: nothing to overwrite.
  std::error_code error = options.inputFilename == "-"
                              ? fs::status(STDIN_FILENO, input)
                              : fs::status(options.inputFilename, input);
  return !error && fs::equivalent(input, output);
}

/// The regular file a write to `path` reaches, by device and inode, or for
/// one not there yet, by its folder's and its name; nothing for what is not
/// a regular file (a device such as /dev/null, a FIFO), which several
/// writes may share, or for a folder that is not there.
std::optional<std::pair<llvm::sys::fs::UniqueID, std::string>>
identifyWrittenFile(StringRef path) {
  namespace fs = llvm::sys::fs;
  std::string target = followSymbolicLinks(path);
  fs::file_status status;
  if (!fs::status(target, status)) {
    if (status.type() != fs::file_type::regular_file)
      return std::nullopt;
    return std::make_pair(status.getUniqueID(), std::string());
  }
  StringRef folder = llvm::sys::path::parent_path(target);
  fs::UniqueID folderID;
  if (fs::getUniqueID(folder.empty() ? "." : folder, folderID))
    return std::nullopt;
  return std::make_pair(folderID, llvm::sys::path::filename(target).str());
}

/// The files --output, --trace and --benchmark-out write: none may be the
/// input, and no two the same file, where the second would overwrite the
/// first.
Error checkOutputFiles(const RunnerOptions &options) {
  struct Written {
    /// The flag as given: "--output=@a.npy".
    std::string flag;
    /// What it writes: "result[0]", "the trace".
    std::string what;
    StringRef path;
    bool isJson = false;
  };
  std::vector<Written> files;
  for (auto [j, output] : llvm::enumerate(options.outputs))
    if (output.size() >= 2 && output[0] == '@')
      files.push_back({"--output=" + output, ("result[" + Twine(j) + "]").str(),
                       StringRef(output).drop_front()});
  // The JSON files. "--trace FILE" takes the next word as its value: a
  // program named there would be overwritten, with the program read from
  // stdin instead.
  for (const auto *json : {&options.trace, &options.benchmarkOut}) {
    if (!json->getNumOccurrences())
      continue;
    std::string flag = "--" + json->ArgStr.str() + "=" + json->getValue();
    if (json->empty())
      return makeError(flag + " names no file: give --" + json->ArgStr.str() +
                       "=FILE");
    files.push_back(
        {flag, json == &options.trace ? "the trace" : "the benchmark report",
         json->getValue(), /*isJson=*/true});
  }
  using FileIdentity = std::pair<llvm::sys::fs::UniqueID, std::string>;
  std::vector<std::pair<size_t, FileIdentity>> seen;
  for (auto [j, file] : llvm::enumerate(files)) {
    // Each part would write the same file, the last one winning.
    if (options.splitInputFile)
      return makeError(file.flag +
                       " writes one file, and --split-input-file runs each "
                       "part of the input apart: each part would overwrite "
                       "it; write the results of one program at a time");
    if (overwritesInput(file.path, options))
      return makeError(file.flag + " names the input file: writing " +
                       file.what +
                       " would overwrite the program; choose another file");
    StringRef extension = llvm::sys::path::extension(file.path);
    if (file.isJson && (extension == ".mlir" || extension == ".mlirbc"))
      return makeError(file.flag + " names an MLIR file, which writing JSON "
                                   "to it would overwrite: give the file a "
                                   ".json name, after an '='");
    std::optional<FileIdentity> identity = identifyWrittenFile(file.path);
    if (!identity)
      continue;
    for (const auto &[i, earlier] : seen)
      if (earlier == *identity)
        return makeError(files[i].flag + " and " + file.flag +
                         " name the same file: " + file.what +
                         " would overwrite " + files[i].what +
                         "; give each a file of its own");
    seen.emplace_back(j, std::move(*identity));
  }
  return Error::success();
}

/// The checks that watch kernels run only where the host runs them; on a
/// GPU, NVIDIA's compute-sanitizer is the tool. memcheck checks the host
/// code on every backend, and leakcheck the runtime's tables.
Error checkChecksOnBackend(CheckSet checks, Backend backend) {
  if (backend == Backend::Host)
    return Error::success();
  for (Check check : {Check::Racecheck, Check::Initcheck, Check::Synccheck})
    if (checks.has(check))
      return makeError(
          Twine("--check=") + getCheckName(check) +
          " watches kernels as the host backend runs them; the " +
          getBackendName(backend) +
          " backend runs them on a GPU: run the program with "
          "gpu-runner-host (on a GPU, memcheck and leakcheck check the host "
          "code and the runtime's tables)");
  return Error::success();
}

} // namespace

Error checkOptions(const RunnerOptions &options, Backend backend) {
  auto reject = [](const Twine &message) { return makeError(message); };
  constexpr unsigned maxRuns = RunnerOptions::kMaxBenchmarkRuns;
  if (options.benchmarkRepetitions > maxRuns)
    return reject(
        "--benchmark-repetitions=" + Twine(options.benchmarkRepetitions) +
        " is out of range: give 0 to " + Twine(maxRuns) + " runs");
  if (options.benchmarkWarmup > maxRuns)
    return reject("--benchmark-warmup=" + Twine(options.benchmarkWarmup) +
                  " is out of range: give 0 to " + Twine(maxRuns) + " runs");
  if (options.device < 0)
    return reject("--device=" + Twine(options.device) +
                  " is negative; devices are numbered from 0");
  // LLVM splits the value at its commas: "memcheck," is two names, the
  // second empty.
  for (const std::string &name : options.checkList) {
    if (name.empty() && options.checkList.size() > 1)
      return reject("--check: an empty name is not a check; give " +
                    CheckSet::describeNames());
    if (std::string problem = CheckSet().parse(name); !problem.empty())
      return reject("--check: " + problem);
  }
  if (Error error = checkChecksOnBackend(options.getChecks(), backend))
    return error;
  if (!parseEntryResult(options.entryPointResult))
    return reject("--entry-point-result=" + options.entryPointResult +
                  " is not one of void, i32, i64, f32");
  if (options.benchmarkWarmup.getNumOccurrences() &&
      options.benchmarkRepetitions == 0)
    return reject("--benchmark-warmup needs --benchmark-repetitions=N with N "
                  "at least 1");
  if (!options.benchmarkOut.empty() && options.benchmarkRepetitions == 0)
    return reject("--benchmark-out writes the runs of --benchmark-"
                  "repetitions=N: add it, with N at least 1");
  if (options.noCache && (options.cacheDir.getNumOccurrences() ||
                          options.cacheMaxSize.getNumOccurrences()))
    return reject("--no-cache runs without the cache: drop --cache-dir and "
                  "--cache-max-size, or --no-cache");
  if (backend == Backend::Host && !options.gpuChip.empty())
    return reject(Twine("--gpu-chip is for GPU backends; the ") +
                  getBackendName(backend) + " backend runs kernels on the CPU");
  // The jitdump file would hold no function: none is linked.
  if (options.perfJitdump && options.compileOnly)
    return reject("--perf-jitdump records the program's code as it is "
                  "linked to run, and --compile-only runs nothing: drop one");
  if (options.dumpObjectFile && options.objectFilename == "-" &&
      !options.compileOnly)
    return reject("--object-filename=- writes the object to stdout, where the "
                  "program prints too: add --compile-only, or name a file");
  if (options.dumpObjectFile &&
      overwritesInput(options.getObjectFilename(), options))
    return reject(
        (options.objectFilename.empty()
             ? "--dump-object-file writes to " + options.getObjectFilename()
             : "--object-filename=" + options.getObjectFilename()) +
        ", which is the input file: writing the object would overwrite the "
        "program; choose another --object-filename");
  // Each part would write the same file, the last one winning.
  if (options.splitInputFile && options.dumpObjectFile)
    return reject("--dump-object-file writes one object file, and "
                  "--split-input-file compiles each part of the input apart: "
                  "dump the object of one program at a time");
  if (Error error = checkOutputFiles(options))
    return error;
  if (options.splitInputFile && !options.dumpGpuBinary.empty())
    return reject("--dump-gpu-binary writes each gpu.module's binary by its "
                  "name, which parts of a --split-input-file input may "
                  "share: dump the binaries of one program at a time");
  // The host compiles kernels into the host program: there is no binary to
  // write, and an empty folder would look like a failed dump.
  if (backend == Backend::Host && !options.dumpGpuBinary.empty())
    return reject(Twine("--dump-gpu-binary is for GPU backends; the ") +
                  getBackendName(backend) +
                  " backend compiles kernels into the host program, with no "
                  "GPU binary (--dump-object-file writes that program)");
  return Error::success();
}

Error checkInputIsMLIR(const llvm::MemoryBuffer &input) {
  StringRef text = input.getBuffer();
  if (text.starts_with("ML\xefR"))
    return Error::success();
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.begin());
  const auto *end = reinterpret_cast<const llvm::UTF8 *>(text.end());
  const llvm::UTF8 *bad = begin;
  size_t offset = text.find('\0');
  if (!llvm::isLegalUTF8String(&bad, end))
    offset = std::min<size_t>(offset, bad - begin);
  if (offset == StringRef::npos)
    return Error::success();
  StringRef before = text.take_front(offset);
  size_t line = before.count('\n') + 1;
  size_t column = offset - (before.rfind('\n') + 1) + 1;
  std::string byte;
  llvm::raw_string_ostream os(byte);
  os << llvm::format_hex(static_cast<uint8_t>(text[offset]), 4);
  return makeErrorAt(input.getBufferIdentifier() + ":" + Twine(line) + ":" +
                         Twine(column),
                     "the input is neither MLIR text nor MLIR bytecode: "
                     "byte " +
                         Twine(offset) + " is " + byte);
}

std::string findGivenLlvmOption(const RunnerOptions &options, int argc,
                                char **argv) {
  const auto *begin = reinterpret_cast<const char *>(&options);
  const auto *end = begin + sizeof(options);
  auto registered = llvm::cl::getRegisteredOptions();
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--")
      break; // What follows is positional.
    if (!arg.starts_with("-") || arg == "-")
      continue;
    llvm::StringRef name = arg.ltrim('-').split('=').first;
    auto found = registered.find(name);
    if (found == registered.end())
      continue;
    const auto *option = reinterpret_cast<const char *>(found->second);
    if (option < begin || option >= end)
      return "-" + name.str();
  }
  return "";
}

llvm::Expected<PipelineOptions> choosePipeline(const RunnerOptions &options,
                                               Backend backend) {
  PipelineOptions pipeline;
  pipeline.splitBarriers = !options.noBarrierSplitting;
  pipeline.subgroupVectors = !options.noSubgroupVectors;
  pipeline.checks = options.getChecks();
  pipeline.dumpGpuBinaryDir = options.dumpGpuBinary;
  if (backend == Backend::Host)
    return pipeline;

  pipeline.gpuOptLevel = options.getOptLevel();
  auto queryDeviceChip = [&] {
    return gpu_runner::queryDeviceChip(options.device);
  };
  if (Error error =
          chooseGpuTarget(backend, options.gpuChip, options.compileOnly,
                          queryDeviceChip, pipeline))
    return std::move(error);
  if (backend == Backend::Cuda && pipeline.cudaToolkitPath.empty())
    printNote("no ptxas found in $CUDA_PATH/bin or /usr/local/cuda/bin: "
              "kernels are compiled to PTX, which the driver compiles when "
              "loading them");
  return pipeline;
}

} // namespace gpu_runner
