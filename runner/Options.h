//===- Options.h - gpu-runner's command-line options ----------------------===//
//
// Made in main, as mlir-runner makes its own: the flags mlir-runner users
// know keep their names and meaning.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_OPTIONS_H
#define GPU_RUNNER_RUNNER_OPTIONS_H

#include "wrappers/CheckKinds.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <limits>
#include <type_traits>

#include <optional>
#include <string>

namespace gpu_runner {

/// The parser of a numeric flag: a value that is empty, or not a number of
/// type `T`, is an error in gpu-runner's form ("error: --atol: 'abc' is not
/// a number") rather than LLVM's, and ends the run with exit status 1.
template <typename T> class NumberParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;

  // Returns true on an error, as every llvm::cl parser does.
  bool parse(llvm::cl::Option &, llvm::StringRef argName, llvm::StringRef arg,
             T &value) {
    if (arg.empty())
      return fail(argName, "the value is empty; give " + describe());
    if constexpr (std::is_floating_point_v<T>) {
      // LLVM's own parser<double> takes what strtod takes, all of it.
      std::string text = arg.str();
      char *end = nullptr;
      double parsed = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || llvm::isSpace(arg.front()))
        return fail(argName, "'" + arg + "' is not a number");
      value = T(parsed);
      return false;
    } else {
      // As LLVM's own integer parsers: decimal, or 0x hex.
      if (std::is_unsigned_v<T>) {
        unsigned long long parsed;
        if (arg.getAsInteger(0, parsed) ||
            parsed > std::numeric_limits<T>::max())
          return fail(argName, "'" + arg + "' is not " + describe());
        value = T(parsed);
      } else {
        long long parsed;
        if (arg.getAsInteger(0, parsed) ||
            parsed < std::numeric_limits<T>::min() ||
            parsed > std::numeric_limits<T>::max())
          return fail(argName, "'" + arg + "' is not " + describe());
        value = T(parsed);
      }
      return false;
    }
  }

private:
  /// "a whole number from 0 to 4294967295".
  static std::string describe() {
    if constexpr (std::is_floating_point_v<T>)
      return "a number";
    else
      return "a whole number from " +
             std::to_string(std::numeric_limits<T>::min()) + " to " +
             std::to_string(std::numeric_limits<T>::max());
  }

  static bool fail(llvm::StringRef argName, const llvm::Twine &message) {
    llvm::errs() << "error: --" << argName << ": " << message << "\n";
    return true;
  }
};

template <typename T>
using NumberOption = llvm::cl::opt<T, false, NumberParser<T>>;

struct RunnerOptions {
  llvm::cl::OptionCategory category{"gpu-runner options"};

  llvm::cl::opt<std::string> inputFilename{
      llvm::cl::Positional,
      llvm::cl::desc("<input .mlir file, or - for stdin>"), llvm::cl::init("-"),
      llvm::cl::cat(category)};

  llvm::cl::opt<std::string> entryPoint{
      "e",
      llvm::cl::desc("The function to run (default: main); --input gives "
                     "its arguments"),
      llvm::cl::value_desc("name"), llvm::cl::init("main"),
      llvm::cl::cat(category)};
  // LLVM hides aliases from --help; this one is the long name the README
  // gives, so it is shown.
  llvm::cl::alias entryPointLong{"entry-point", llvm::cl::desc("Alias for -e"),
                                 llvm::cl::aliasopt(entryPoint),
                                 llvm::cl::NotHidden, llvm::cl::cat(category)};

  llvm::cl::opt<std::string> entryPointResult{
      "entry-point-result",
      llvm::cl::desc("Call the entry point as mlir-runner does: no "
                     "arguments, a result of this type (void, i32, i64 or "
                     "f32) printed alone. Without it, the entry point takes "
                     "--input values and its results print as result[N]"),
      llvm::cl::value_desc("type"), llvm::cl::init("void"),
      llvm::cl::cat(category)};

  llvm::cl::list<std::string> sharedLibs{
      "shared-libs",
      llvm::cl::desc("Libraries to resolve the program's external functions "
                     "from (the MLIR runner utilities need no flag)"),
      llvm::cl::value_desc("path,..."), llvm::cl::CommaSeparated,
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> optO0{"O0",
                            llvm::cl::desc("Compile without optimization"),
                            llvm::cl::cat(category)};
  llvm::cl::opt<bool> optO1{"O1", llvm::cl::desc("Optimization level 1"),
                            llvm::cl::cat(category)};
  llvm::cl::opt<bool> optO2{"O2",
                            llvm::cl::desc("Optimization level 2 (default)"),
                            llvm::cl::cat(category)};
  llvm::cl::opt<bool> optO3{"O3", llvm::cl::desc("Optimization level 3"),
                            llvm::cl::cat(category)};

  // As a compiler's -g: with -O0, gdb steps through the program line by
  // line.
  llvm::cl::opt<bool> debugInfo{
      "g",
      llvm::cl::desc("Make the program's host code (host kernels included) "
                     "debuggable in gdb: debug info with the lines of the "
                     "input, frame pointers, and the code registered "
                     "through GDB's JIT interface; see docs/debugging.md"),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> perfJitdump{
      "perf-jitdump",
      llvm::cl::desc("Write the program's functions (names, code, and with "
                     "-g their lines) to a perf jitdump file, jit-<pid>.dump "
                     "under $JITDUMPDIR/.debug/jit or ~/.debug/jit, for "
                     "`perf inject --jit`; keeps frame pointers"),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> dumpObjectFile{
      "dump-object-file",
      llvm::cl::desc("Write the compiled host object to a file"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> objectFilename{
      "object-filename",
      llvm::cl::desc("Where --dump-object-file writes (default: <input>.o; "
                     "- for stdout, with --compile-only)"),
      llvm::cl::value_desc("path"), llvm::cl::cat(category)};

  llvm::cl::opt<std::string> passes{
      "passes",
      llvm::cl::desc("Run this pass pipeline on the program before "
                     "gpu-runner's own lowering, as `mlir-opt --pass-pipeline` "
                     "would: any pass MLIR registers, e.g. "
                     "'func.func(lower-vector-mask),arith-emulate-wide-int{"
                     "widest-int-supported=32}'; the program may then use "
                     "any dialect that the passes lower"),
      llvm::cl::value_desc("pipeline"), llvm::cl::cat(category)};

  llvm::cl::opt<bool> printIRAfterLowering{
      "print-ir-after-lowering",
      llvm::cl::desc("Print the program on stderr once it is lowered to the "
                     "LLVM dialect, then run it"),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> printIRAfterAll{
      "print-ir-after-all",
      llvm::cl::desc("Print the program on stderr after each step of the "
                     "lowering"),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> noBarrierSplitting{
      "no-barrier-splitting",
      llvm::cl::desc("Run every kernel with barriers, shuffles, broadcasts "
                     "or reductions on fibers, also those whose threads all "
                     "reach them together (slower; for comparing the two)"),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> noSubgroupVectors{
      "no-subgroup-vectors",
      llvm::cl::desc("Run the kernels that run as loops over threads cut at "
                     "barriers and exchanges that way, also those that could "
                     "run each subgroup's lanes as vectors (slower; for "
                     "comparing the two)"),
      llvm::cl::cat(category)};

  NumberOption<int> device{
      "device",
      llvm::cl::desc("The device that runs the program (default: 0); see "
                     "--list-devices"),
      llvm::cl::value_desc("N"), llvm::cl::init(0), llvm::cl::cat(category)};

  llvm::cl::opt<bool> listDevices{
      "list-devices",
      llvm::cl::desc("Print the devices this backend runs programs on, one a "
                     "line, and exit; exit status 1 when none answers"),
      llvm::cl::cat(category)};

  llvm::cl::opt<std::string> gpuChip{
      "gpu-chip",
      llvm::cl::desc("The chip kernels are compiled for, e.g. sm_90 or gfx90a "
                     "(default: the device's chip when a device answers, "
                     "else sm_90 on CUDA and gfx90a on HIP)"),
      llvm::cl::value_desc("chip"), llvm::cl::cat(category)};

  llvm::cl::opt<bool> compileOnly{
      "compile-only",
      llvm::cl::desc("Lower and compile the program (kernels included), but "
                     "run nothing; needs no device"),
      llvm::cl::cat(category)};

  llvm::cl::opt<std::string> dumpGpuBinary{
      "dump-gpu-binary",
      llvm::cl::desc("Write each gpu.module's compiled binary to DIR as "
                     "<name>.fatbin on CUDA (.ptx without ptxas), "
                     "<name>.hsaco on HIP"),
      llvm::cl::value_desc("DIR"), llvm::cl::cat(category)};
  /// The most runs --benchmark-repetitions and --benchmark-warmup each ask
  /// for: enough for any benchmark, and few enough that no count of runs
  /// overflows.
  static constexpr unsigned kMaxBenchmarkRuns = 1000000;

  NumberOption<unsigned> benchmarkRepetitions{
      "benchmark-repetitions",
      llvm::cl::desc("Run the entry point N times (at most 1000000), after "
                     "the warm-up runs, and report the time per run (min, "
                     "median, max) and the compile time on stderr (default "
                     "0: run it once, report nothing)"),
      llvm::cl::value_desc("N"), llvm::cl::init(0), llvm::cl::cat(category)};

  NumberOption<unsigned> benchmarkWarmup{
      "benchmark-warmup",
      llvm::cl::desc("Untimed runs of the entry point before the timed ones "
                     "(0 to 1000000, default 1; with "
                     "--benchmark-repetitions)"),
      llvm::cl::value_desc("W"), llvm::cl::init(1), llvm::cl::cat(category)};

  llvm::cl::opt<std::string> benchmarkOut{
      "benchmark-out",
      llvm::cl::desc("Write the --benchmark-repetitions runs to FILE in "
                     "Google Benchmark's JSON format: one entry per run, "
                     "then the mean, median, stddev, min and max"),
      llvm::cl::value_desc("FILE"), llvm::cl::cat(category)};

  llvm::cl::opt<std::string> trace{
      "trace",
      llvm::cl::desc("Write the run's timeline to FILE in Chrome's trace "
                     "event format (JSON; open it in Perfetto or "
                     "chrome://tracing): the runner's phases, and each "
                     "runtime op on the host thread and on its stream"),
      llvm::cl::value_desc("FILE"), llvm::cl::cat(category)};

  llvm::cl::opt<bool> printStatistics{
      "print-statistics",
      llvm::cl::desc("Print on stderr, at exit, the run's device memory "
                     "(peak, total, allocations), its copies by direction, "
                     "memsets, launches of each kernel with their time, "
                     "streams and waits"),
      llvm::cl::cat(category)};

  NumberOption<unsigned> timeout{
      "timeout",
      llvm::cl::desc("Stop the run with an error after this many seconds "
                     "(default: 0, no limit)"),
      llvm::cl::value_desc("seconds"), llvm::cl::init(0),
      llvm::cl::cat(category)};

  NumberOption<unsigned> maxInputSize{
      "max-input-size",
      llvm::cl::desc("Refuse an input larger than this many MiB; 0: no limit "
                     "(default: 1024)"),
      llvm::cl::value_desc("MiB"), llvm::cl::init(1024),
      llvm::cl::cat(category)};

  llvm::cl::list<std::string> checkList{
      "check",
      llvm::cl::desc("Check the program as a GPU sanitizer would, and report "
                     "what a GPU would get wrong: memcheck, racecheck, "
                     "initcheck, synccheck, leakcheck, or all (kernels on "
                     "the host backend; memcheck and leakcheck on every "
                     "backend); slower; see docs/checks.md"),
      llvm::cl::value_desc("check,..."), llvm::cl::CommaSeparated,
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> checkBounds{
      "check-bounds", llvm::cl::desc("The same as --check=memcheck"),
      llvm::cl::cat(category)};

  /// The checks --check and --check-bounds ask for. A --check value that
  /// names no check is checkOptions' to report; here it adds nothing.
  CheckSet getChecks() const {
    CheckSet checks;
    for (const std::string &name : checkList)
      (void)checks.parse(name);
    if (checkBounds)
      checks.add(Check::Memcheck);
    return checks;
  }

  llvm::cl::opt<std::string> cacheDir{
      "cache-dir",
      llvm::cl::desc("Keep compiled programs in DIR, to skip compiling a "
                     "program run before (default: $GPU_RUNNER_CACHE_DIR, "
                     "else gpu-runner in $XDG_CACHE_HOME or ~/.cache)"),
      llvm::cl::value_desc("DIR"), llvm::cl::cat(category)};

  llvm::cl::opt<bool> noCache{
      "no-cache",
      llvm::cl::desc("Compile the program without looking in or adding to "
                     "the compile cache"),
      llvm::cl::cat(category)};

  llvm::cl::opt<std::string> cacheMaxSize{
      "cache-max-size",
      llvm::cl::desc("Evict the least recently used compiled programs when "
                     "the cache folder grows past SIZE: bytes, or with a "
                     "k, m or g suffix (default: 1g)"),
      llvm::cl::value_desc("SIZE"), llvm::cl::cat(category)};

  llvm::cl::opt<bool> timing{
      "timing",
      llvm::cl::desc("Report on stderr the time of each phase (parsing, each "
                     "lowering pass, translation, LLVM optimization and code "
                     "generation, GPU binary compilation, loading, the run) "
                     "and whether the compile cache had the program"),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> splitInputFile{
      "split-input-file",
      llvm::cl::desc("Cut the input at its '// -----' lines and compile and "
                     "run each part on its own, in order, with '// -----' "
                     "between their outputs; exit status 1 if any part "
                     "failed"),
      llvm::cl::cat(category)};

  // The entry point's data (docs/data.md): values in iree-run-module's
  // grammar. Not comma-separated: a value holds commas.
  llvm::cl::list<std::string> inputs{
      "input",
      llvm::cl::desc("An argument of the entry point, in order: 42, i64=42, "
                     "2x3xf32=1,2,3,4,5,6, 1024xf32=0 (a splat), @a.npy, "
                     "2x3xf32=@a.bin (raw little-endian bytes)"),
      llvm::cl::value_desc("value"), llvm::cl::cat(category)};
  llvm::cl::list<std::string> outputs{
      "output",
      llvm::cl::desc("Where a result goes, one per result, in order: "
                     "@FILE.npy (a NumPy file), @FILE (raw bytes), - (print "
                     "it; without --output every result is printed)"),
      llvm::cl::value_desc("@file|-"), llvm::cl::cat(category)};
  llvm::cl::list<std::string> expectedOutputs{
      "expected-output",
      llvm::cl::desc("A result's expected value, one per result, in the "
                     "grammar of --input; a mismatch exits with status 1"),
      llvm::cl::value_desc("value"), llvm::cl::cat(category)};
  NumberOption<double> atol{
      "atol",
      llvm::cl::desc("Floats match when |got - expected| <= atol + rtol * "
                     "|expected| (default: 1e-8)"),
      llvm::cl::value_desc("x"), llvm::cl::init(1e-8), llvm::cl::cat(category)};
  NumberOption<double> rtol{
      "rtol", llvm::cl::desc("See --atol (default: 1e-5)"),
      llvm::cl::value_desc("x"), llvm::cl::init(1e-5), llvm::cl::cat(category)};
  llvm::cl::opt<bool> nanEqual{
      "nan-equal",
      llvm::cl::desc("A NaN result matches an expected NaN (without it, NaN "
                     "matches nothing)"),
      llvm::cl::cat(category)};
  llvm::cl::opt<std::string> launch{
      "launch",
      llvm::cl::desc("Run one kernel, with --input as its arguments, on "
                     "--grid blocks of --block threads: its memref arguments "
                     "are copied to the device and back, and are the results"),
      llvm::cl::value_desc("MODULE::KERNEL"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> grid{
      "grid", llvm::cl::desc("The blocks --launch runs, in x, y and z"),
      llvm::cl::value_desc("X[,Y[,Z]]"), llvm::cl::cat(category)};
  llvm::cl::opt<std::string> block{
      "block", llvm::cl::desc("The threads of each block --launch runs"),
      llvm::cl::value_desc("X[,Y[,Z]]"), llvm::cl::cat(category)};
  NumberOption<unsigned> dynamicSharedMemory{
      "dynamic-shared-memory",
      llvm::cl::desc("The dynamic shared memory --launch gives each block "
                     "(default: 0)"),
      llvm::cl::value_desc("bytes"), llvm::cl::init(0),
      llvm::cl::cat(category)};

  /// Whether the entry point is called with data, as --input and the other
  /// data flags call it, rather than as mlir-runner calls it: unless
  /// --entry-point-result is given.
  bool callsWithData() const {
    return entryPointResult.getNumOccurrences() == 0;
  }

  /// Where --dump-object-file writes the object.
  std::string getObjectFilename() const {
    return objectFilename.empty() ? inputFilename + ".o"
                                  : objectFilename.getValue();
  }

  /// The optimization level the last -O flag on the command line asks for.
  unsigned getOptLevel() const {
    unsigned level = 2, position = 0;
    const llvm::cl::opt<bool> *flags[] = {&optO0, &optO1, &optO2, &optO3};
    for (unsigned i = 0; i < 4; ++i)
      if (*flags[i] && flags[i]->getPosition() >= position) {
        level = i;
        position = flags[i]->getPosition();
      }
    return level;
  }

  /// The first of LLVM's own options given on the command line ("-name"),
  /// or empty (findGivenLlvmOption, after parsing).
  std::string llvmOption;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_OPTIONS_H
