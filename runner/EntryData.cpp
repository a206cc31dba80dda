//===- EntryData.cpp - The entry point called with data -------------------===//

#include "runner/EntryData.h"

#include "runner/Activity.h"
#include "runner/DataComparison.h"
#include "runner/DataPrinter.h"
#include "runner/NumpyFile.h"
#include "runner/OutputFile.h"
#include "runner/RunnerError.h"
#include "wrappers/Backend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include <pthread.h>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace gpu_runner {

namespace {

/// An error at the entry point's location, where it has one.
Error makeErrorAtEntry(const EntrySignature &signature, const Twine &message) {
  return makeErrorAt(signature.location, message);
}

std::string count(size_t n, StringRef one, StringRef many) {
  return std::to_string(n) + " " + (n == 1 ? one : many).str();
}

/// "X[,Y[,Z]]", each from 1 to 2^31 - 1 (what a GPU's grid allows in x).
bool parseDims(StringRef text, int64_t (&dims)[3]) {
  llvm::SmallVector<StringRef> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return false;
  for (auto [i, part] : llvm::enumerate(parts)) {
    uint64_t value;
    if (part.empty() || !llvm::all_of(part, llvm::isDigit) ||
        part.getAsInteger(10, value) || value < 1 || value > INT32_MAX)
      return false;
    dims[i] = int64_t(value);
  }
  for (size_t i = parts.size(); i < 3; ++i)
    dims[i] = 1;
  return true;
}

/// The kernel --launch names: MODULE::KERNEL.
bool splitLaunch(StringRef text, StringRef &module, StringRef &kernel) {
  std::tie(module, kernel) = text.split("::");
  return !module.empty() && !kernel.empty() && !kernel.contains("::");
}

bool sameType(ElementType a, ElementType b) {
  auto canonical = [](ElementType t) {
    return t == ElementType::Index ? ElementType::I64 : t;
  };
  return canonical(a) == canonical(b);
}

/// Row-major strides of `shape`, in elements.
std::vector<int64_t> getStrides(llvm::ArrayRef<int64_t> shape) {
  // Unsigned: with a size 0, the others' product may not fit.
  std::vector<int64_t> strides(shape.size());
  uint64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = int64_t(stride);
    stride *= uint64_t(shape[i]);
  }
  return strides;
}

std::string formatNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

/// How floats are compared, for messages.
std::string describeTolerance(const RunnerOptions &options) {
  return "within atol " + formatNumber(options.atol) + " + rtol " +
         formatNumber(options.rtol) + " x |expected|" +
         (options.nanEqual ? ", NaN equal to NaN" : "");
}

/// Whether `pointer` is in the calling thread's stack, where the entry
/// point's memref.alloca memory was (it is called on this thread).
bool isOnThisThreadsStack(const void *pointer) {
  // Found once per thread: the main thread's is read from /proc.
  struct StackRange {
    const char *begin = nullptr;
    size_t bytes = 0;
    StackRange() {
      pthread_attr_t attributes;
      if (pthread_getattr_np(pthread_self(), &attributes) != 0)
        return;
      void *stack = nullptr;
      if (pthread_attr_getstack(&attributes, &stack, &bytes) == 0)
        begin = static_cast<const char *>(stack);
      else
        bytes = 0;
      pthread_attr_destroy(&attributes);
    }
  };
  thread_local const StackRange range;
  auto *address = static_cast<const char *>(pointer);
  return range.begin && address >= range.begin &&
         address < range.begin + range.bytes;
}

/// memref.get_global's descriptor has this as its allocated pointer: the
/// memory is the program's global, not the heap's.
constexpr uintptr_t kGlobalMarker = 0xdeadbeef;

} // namespace

namespace {

/// --launch's kernel, grid and block, and their shared memory; none
/// without --launch. Each flag is checked, and parsed, here only.
Expected<std::optional<LaunchTarget>>
parseLaunchFlags(const RunnerOptions &options) {
  if (options.launch.empty()) {
    if (!options.grid.empty() || !options.block.empty() ||
        options.dynamicSharedMemory.getNumOccurrences())
      return makeError("--grid, --block and --dynamic-shared-memory are for "
                       "--launch, which names the kernel to run");
    return std::nullopt;
  }
  StringRef module, kernel;
  if (!splitLaunch(options.launch, module, kernel))
    return makeError("--launch=" + options.launch +
                     ": name the kernel as MODULE::KERNEL, e.g. "
                     "--launch=kernels::saxpy");
  if (options.entryPoint.getNumOccurrences())
    return makeError("--launch runs a kernel with host code of its own; -e "
                     "names a host function to run: give one of them");
  if (options.grid.empty() || options.block.empty())
    return makeError("--launch needs --grid and --block: the blocks and the "
                     "threads of each, as X[,Y[,Z]]");
  LaunchTarget target;
  target.module = module.str();
  target.kernel = kernel.str();
  if (!parseDims(options.grid, target.grid))
    return makeError("--grid=" + options.grid +
                     ": give one to three sizes from 1 to 2147483647, "
                     "separated by commas: X[,Y[,Z]]");
  if (!parseDims(options.block, target.block))
    return makeError("--block=" + options.block +
                     ": give one to three sizes from 1 to 2147483647, "
                     "separated by commas: X[,Y[,Z]]");
  // gpu.launch_func's dynamicSharedMemorySize is an i32, as CUDA's
  // cuLaunchKernel and HIP's hipModuleLaunchKernel take it.
  if (options.dynamicSharedMemory > uint64_t(INT32_MAX))
    return makeError(
        "--dynamic-shared-memory=" + Twine(options.dynamicSharedMemory) +
        " is more than 2147483647 bytes, the most a launch's "
        "dynamic shared memory size (an i32) holds");
  target.dynamicSharedMemory = options.dynamicSharedMemory;
  return target;
}

/// The file a value of the data grammar reads: "a.npy" of "@a.npy" and
/// "a.bin" of "4xf32=@a.bin"; empty when it reads none.
StringRef getDataFileName(StringRef text) {
  size_t at = text.find('@');
  if (at == StringRef::npos || (at != 0 && text[at - 1] != '='))
    return "";
  return text.drop_front(at + 1);
}

/// The values of `flag` (--input or --expected-output), in order. A data
/// file may hold --max-input-size MiB (0: no limit).
Error parseValues(const llvm::cl::list<std::string> &flag,
                  unsigned maxInputSizeMiB, std::vector<DataValue> &values) {
  uint64_t maxFileBytes =
      maxInputSizeMiB ? uint64_t(maxInputSizeMiB) << 20 : kMaxValueBytes;
  for (const std::string &text : flag) {
    // A FIFO that no one writes blocks here: --timeout says so.
    StringRef file = getDataFileName(text);
    std::string activityText = ("reading data file '" + file + "'").str();
    std::optional<ScopedActivity> activity;
    if (!file.empty())
      activity.emplace(activityText.c_str());
    Expected<DataValue> value =
        parseDataValue(text, kMaxValueBytes, /*readFiles=*/true, maxFileBytes);
    if (!value) {
      // A mistake in the text says where it is; one in a file names it.
      std::string message = llvm::toString(value.takeError());
      if (!StringRef(message).starts_with("column "))
        return makeError(message);
      return makeError("--" + flag.ArgStr + "=" + text + ": " + message);
    }
    values.push_back(std::move(*value));
  }
  return Error::success();
}

} // namespace

Expected<RunData> parseDataFlags(const RunnerOptions &options) {
  bool anyData = !options.inputs.empty() || !options.outputs.empty() ||
                 !options.expectedOutputs.empty() || !options.launch.empty();
  if (!options.callsWithData() && anyData)
    return makeError("--entry-point-result calls the entry point as "
                     "mlir-runner does, without arguments; leave it out to "
                     "give --input, --output, --expected-output or --launch");
  for (const std::string &output : options.outputs)
    if (output != "-" && (output.size() < 2 || output[0] != '@'))
      return makeError("--output=" + output +
                       ": give @FILE.npy, @FILE (raw bytes) or - (print it)");
  if (!(options.atol >= 0) || !(options.rtol >= 0))
    return makeError("--atol and --rtol must be 0 or more");
  RunData data;
  Expected<std::optional<LaunchTarget>> launch = parseLaunchFlags(options);
  if (!launch)
    return launch.takeError();
  data.launch = std::move(*launch);
  if (Error error =
          parseValues(options.inputs, options.maxInputSize, data.inputs))
    return std::move(error);
  if (Error error = parseValues(options.expectedOutputs, options.maxInputSize,
                                data.expected))
    return std::move(error);
  return data;
}

std::string describeLaunch(const std::optional<LaunchTarget> &target) {
  if (!target)
    return "none";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << target->module << "::" << target->kernel << " grid " << target->grid[0]
     << "," << target->grid[1] << "," << target->grid[2] << " block "
     << target->block[0] << "," << target->block[1] << "," << target->block[2]
     << " shared " << target->dynamicSharedMemory;
  return text;
}

Error EntryCall::checkCounts(const RunData &data,
                             const RunnerOptions &options) const {
  std::string what = options.launch.empty()
                         ? "entry point '" + signature.name + "'"
                         : "kernel '" + options.launch + "'";
  size_t params = signature.params.size();
  if (data.inputs.size() != params)
    return makeErrorAtEntry(
        signature, what + " takes " + count(params, "argument", "arguments") +
                       ", but " +
                       count(data.inputs.size(), "--input value was",
                             "--input values were") +
                       " given");
  size_t results = signature.results.size();
  if (signature.resultsAreMemRefParams)
    results = llvm::count_if(signature.params,
                             [](const EntryType &t) { return t.isMemRef; });
  for (const llvm::cl::list<std::string> *flag :
       {std::addressof(options.outputs),
        std::addressof(options.expectedOutputs)})
    if (!flag->empty() && flag->size() != results)
      return makeErrorAtEntry(
          signature,
          what + " has " + count(results, "result", "results") +
              (signature.resultsAreMemRefParams ? " (its memref arguments)"
                                                : "") +
              ", but --" + flag->ArgStr + " was given " +
              count(flag->size(), "time", "times") +
              ": give one for each result");
  return Error::success();
}

Error EntryCall::addArgument(size_t i, const EntryType &param,
                             DataValue &value) {
  std::string prefix =
      "argument " + std::to_string(i) + ": expected " + param.text + ", got ";
  unsigned size = getElementSize(param.element);
  if (!value.type) {
    // An untyped scalar takes the parameter's type: a scalar's, or a 0-d
    // memref's.
    if (param.isMemRef && !param.shape.empty())
      return makeErrorAtEntry(signature, prefix + value.describe());
    value.type = param.element;
    if (!value.data.allocate(size))
      return makeErrorAtEntry(signature,
                              "cannot allocate argument " + Twine(i));
    if (Error error =
            convertLiteral(value.literal, param.element, value.data.data()))
      return makeErrorAtEntry(signature, prefix + "'" + value.literal + "': " +
                                             llvm::toString(std::move(error)));
  }
  bool typeMatches = sameType(*value.type, param.element);
  if (!param.isMemRef) {
    if (!typeMatches || !value.shape.empty())
      return makeErrorAtEntry(signature, prefix + value.describe());
    std::vector<int64_t> slot(1, 0);
    std::memcpy(slot.data(), value.data.data(), size);
    argSlots.push_back(std::move(slot));
    return Error::success();
  }
  bool shapeMatches = value.shape.size() == param.shape.size();
  for (size_t d = 0; shapeMatches && d < param.shape.size(); ++d)
    shapeMatches =
        param.shape[d] == kDynamicSize || param.shape[d] == value.shape[d];
  if (!typeMatches || !shapeMatches)
    return makeErrorAtEntry(signature, prefix + value.describe());
  // The descriptor: allocated and aligned pointers, offset, sizes, strides.
  std::vector<int64_t> descriptor;
  int64_t base = int64_t(reinterpret_cast<uintptr_t>(value.data.data()));
  descriptor.push_back(base);
  descriptor.push_back(base);
  descriptor.push_back(0);
  descriptor.insert(descriptor.end(), value.shape.begin(), value.shape.end());
  std::vector<int64_t> strides = getStrides(value.shape);
  descriptor.insert(descriptor.end(), strides.begin(), strides.end());
  argSlots.push_back(std::move(descriptor));
  return Error::success();
}

Expected<std::unique_ptr<EntryCall>>
EntryCall::prepare(const EntrySignature &signature, RunData &data,
                   const RunnerOptions &options) {
  std::unique_ptr<EntryCall> call(new EntryCall(signature));
  if (Error error = call->checkCounts(data, options))
    return std::move(error);
  for (auto [i, param] : llvm::enumerate(signature.params))
    if (Error error = call->addArgument(i, param, data.inputs[i]))
      return std::move(error);
  call->args = std::move(data.inputs);
  for (const EntryType &result : signature.results)
    call->resultSlots.emplace_back(
        result.isMemRef ? 3 + 2 * result.shape.size() : 1, 0);
  for (std::vector<int64_t> &slot : call->argSlots)
    call->pointers.push_back(slot.data());
  for (std::vector<int64_t> &slot : call->resultSlots)
    call->pointers.push_back(slot.data());
  return std::move(call);
}

void EntryCall::call(void *packed) {
  reinterpret_cast<void (*)(void **)>(packed)(pointers.data());
}

Expected<std::vector<DataValue>> EntryCall::copyMemRefArguments() const {
  // Copies: the arguments stay, for the next call of a benchmark.
  std::vector<DataValue> results;
  for (auto [param, arg] : llvm::zip(signature.params, args)) {
    if (!param.isMemRef)
      continue;
    DataValue copy;
    copy.type = arg.type;
    copy.shaped = true;
    copy.shape = arg.shape;
    if (!copy.data.allocate(arg.data.size()))
      return makeError("cannot allocate " + Twine(arg.data.size()) +
                       " bytes for a result");
    if (arg.data.size())
      std::memcpy(copy.data.data(), arg.data.data(), arg.data.size());
    results.push_back(std::move(copy));
  }
  return results;
}

Error EntryCall::checkExtent(size_t j, llvm::ArrayRef<int64_t> slot) const {
  const EntryType &type = signature.results[j];
  unsigned size = getElementSize(type.element);
  size_t rank = type.shape.size();
  const char *allocated = reinterpret_cast<const char *>(slot[0]);
  const char *aligned = reinterpret_cast<const char *>(slot[1]);
  llvm::ArrayRef<int64_t> sizes = slot.slice(3, rank);
  llvm::ArrayRef<int64_t> strides = slot.slice(3 + rank, rank);
  // The allocation the descriptor's allocated pointer begins: an argument
  // returned, or a block of the program's heap. Other memory (a global's,
  // the C library's) has no size the runner knows.
  std::optional<uint64_t> allocationBytes;
  for (const DataValue &arg : args)
    if (arg.data.data() == allocated)
      allocationBytes = arg.data.size();
  if (!allocationBytes)
    allocationBytes = getProgramHeapBlockBytes(allocated);
  if (!allocationBytes)
    return Error::success();
  // The bytes the elements span from the allocated pointer, [low, high);
  // 128 bits hold any product of the descriptor's 64-bit words.
  __int128 low = static_cast<__int128>(slot[2]);
  __int128 high = low + 1;
  for (size_t d = 0; d < rank; ++d) {
    __int128 reach = static_cast<__int128>(sizes[d] - 1) * strides[d];
    (reach < 0 ? low : high) += reach;
  }
  __int128 base = reinterpret_cast<uintptr_t>(aligned) -
                  static_cast<__int128>(reinterpret_cast<uintptr_t>(allocated));
  low = base + low * size;
  high = base + high * size;
  if (low >= 0 && high <= static_cast<__int128>(*allocationBytes))
    return Error::success();
  auto format = [](__int128 value) {
    return value < 0 ? "-" + std::to_string(-static_cast<uint64_t>(value))
                     : std::to_string(static_cast<uint64_t>(value));
  };
  return makeErrorAtEntry(
      signature, "result[" + Twine(j) + "]: the returned memref<" +
                     formatShapedType(sizes, type.element) +
                     ">'s offset, sizes and strides reach bytes " +
                     format(low) + " to " + format(high) +
                     " of its allocation, which holds " +
                     Twine(*allocationBytes) + " bytes" +
                     ": a memref may only describe elements inside the "
                     "memory it was allocated with (memref.reinterpret_cast "
                     "to a larger shape does not)");
}

Expected<DataValue> EntryCall::readMemRef(size_t j,
                                          llvm::ArrayRef<int64_t> slot) const {
  const EntryType &type = signature.results[j];
  DataValue value;
  value.type = type.element;
  value.shaped = true;
  unsigned size = getElementSize(type.element);
  size_t rank = type.shape.size();
  const char *aligned = reinterpret_cast<const char *>(slot[1]);
  int64_t offset = slot[2];
  llvm::ArrayRef<int64_t> sizes = slot.slice(3, rank);
  llvm::ArrayRef<int64_t> strides = slot.slice(3 + rank, rank);
  value.shape.assign(sizes.begin(), sizes.end());
  uint64_t elements = 1;
  bool sane = true;
  for (int64_t s : sizes) {
    if (s < 0 || (s && elements > kMaxValueBytes / size / uint64_t(s)))
      sane = false;
    else
      elements *= uint64_t(s);
  }
  std::string name = "result[" + std::to_string(j) + "]";
  if (!sane)
    return makeError(name + ": the returned memref's sizes are not " +
                     "those of a memref gpu-runner can read");
  if (elements && !aligned)
    return makeError(name + ": the returned memref is null");
  std::string device = describeDeviceMemory(aligned);
  if (elements && !device.empty())
    return makeError(name + ": the returned memref is device memory (" +
                     device +
                     "): copy it to host memory (gpu.memcpy) and return "
                     "that");
  // Its frame is gone, and the memory is not the heap's to free.
  if (isOnThisThreadsStack(reinterpret_cast<const void *>(slot[0])) ||
      (elements && isOnThisThreadsStack(aligned)))
    return makeErrorAtEntry(signature,
                            name + ": the entry point returned stack memory "
                                   "(memref.alloca), which ends with its call: "
                                   "return memory from memref.alloc");
  if (elements) {
    if (Error error = checkExtent(j, slot))
      return std::move(error);
  }
  if (!value.data.allocate(elements * size))
    return makeError(name + ": cannot allocate " + Twine(elements * size) +
                     " bytes to read it");
  // Element by element through the strides: any strided layout.
  std::vector<int64_t> index(rank, 0);
  for (uint64_t k = 0; k < elements; ++k) {
    // Unsigned, as the address arithmetic it is: wrapping, not UB.
    uint64_t at = uint64_t(offset);
    for (size_t d = 0; d < rank; ++d)
      at += uint64_t(index[d]) * uint64_t(strides[d]);
    std::memcpy(value.data.data() + k * size, aligned + at * size, size);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  return value;
}

Expected<std::vector<DataValue>>
EntryCall::takeResults(void (*programFree)(void *)) {
  if (signature.resultsAreMemRefParams)
    return copyMemRefArguments();
  std::vector<DataValue> results;
  std::vector<void *> toFree;
  // Every result that cannot be read is reported, each in its own error.
  Error errors = Error::success();
  for (auto [j, type] : llvm::enumerate(signature.results)) {
    const std::vector<int64_t> &slot = resultSlots[j];
    if (!type.isMemRef) {
      DataValue value;
      value.type = type.element;
      unsigned size = getElementSize(type.element);
      value.data.allocate(size);
      std::memcpy(value.data.data(), slot.data(), size);
      results.push_back(std::move(value));
      continue;
    }
    Expected<DataValue> value = readMemRef(j, slot);
    if (!value) {
      errors = llvm::joinErrors(std::move(errors), value.takeError());
      continue;
    }
    void *allocated = reinterpret_cast<void *>(slot[0]);
    bool ours = llvm::any_of(args, [&](const DataValue &arg) {
      return arg.data.data() == allocated;
    });
    if (allocated && !ours &&
        reinterpret_cast<uintptr_t>(allocated) != kGlobalMarker &&
        !llvm::is_contained(toFree, allocated))
      toFree.push_back(allocated);
    results.push_back(std::move(*value));
  }
  for (void *pointer : toFree)
    programFree(pointer);
  if (errors)
    return std::move(errors);
  return results;
}

namespace {

/// The types of the results, for "result[N]: TYPE".
std::vector<const EntryType *> getResultTypes(const EntrySignature &signature) {
  std::vector<const EntryType *> types;
  if (signature.resultsAreMemRefParams) {
    for (const EntryType &param : signature.params)
      if (param.isMemRef)
        types.push_back(&param);
  } else {
    for (const EntryType &result : signature.results)
      types.push_back(&result);
  }
  return types;
}

/// Prints each result, or writes it where --output says.
Error writeResults(const EntrySignature &signature,
                   const std::vector<DataValue> &results,
                   const RunnerOptions &options) {
  std::vector<const EntryType *> types = getResultTypes(signature);
  llvm::raw_ostream &os = llvm::outs();
  for (auto [j, value] : llvm::enumerate(results)) {
    std::string output = options.outputs.empty() ? "-" : options.outputs[j];
    if (output == "-") {
      os << "result[" << j << "]: " << types[j]->text << "\n";
      printData(os, value);
      continue;
    }
    StringRef path = StringRef(output).drop_front();
    std::string npy;
    if (path.ends_with(".npy"))
      npy = writeNpy(value);
    StringRef bytes = path.ends_with(".npy")
                          ? StringRef(npy)
                          : StringRef(value.data.data(), value.data.size());
    if (Error error = writeFileWhole(path, bytes))
      return makeError("--output=" + output + ": cannot write it: " +
                       llvm::toString(std::move(error)));
  }
  return Error::success();
}

/// Why result `j` does not match what --expected-output says, with the
/// first elements that differ on lines of their own; success when it does.
Error checkResult(size_t j, const Comparison &comparison, bool isFloat,
                  const RunnerOptions &options) {
  std::string name = "result[" + std::to_string(j) + "]";
  if (!comparison.shapeMismatch.empty())
    return makeError(name + ": " + comparison.shapeMismatch);
  if (comparison.mismatches == 0)
    return Error::success();
  std::string rule = isFloat ? describeTolerance(options) : "exactly";
  std::string message =
      name + ": " + std::to_string(comparison.mismatches) + " of " +
      count(comparison.elements, "element differs", "elements differ") +
      " from the expected value (compared " + rule + ")";
  for (const std::string &line : comparison.firstMismatches)
    message += "\n  " + line;
  if (comparison.mismatches > comparison.firstMismatches.size())
    message += "\n  ... and " +
               std::to_string(comparison.mismatches -
                              comparison.firstMismatches.size()) +
               " more";
  return makeError(message);
}

} // namespace

Error reportResults(const EntrySignature &signature,
                    const std::vector<DataValue> &results, const RunData &data,
                    const RunnerOptions &options) {
  if (Error error = writeResults(signature, results, options))
    return error;
  if (data.expected.empty())
    return Error::success();

  Tolerance tolerance;
  tolerance.atol = options.atol;
  tolerance.rtol = options.rtol;
  tolerance.nanEqual = options.nanEqual;
  // Every result that differs is reported, each in its own error.
  Error errors = Error::success();
  uint64_t elements = 0;
  bool anyFloat = false;
  for (auto [j, value] : llvm::enumerate(results)) {
    Expected<Comparison> comparison =
        compareData(value, data.expected[j], tolerance);
    if (!comparison) {
      errors = llvm::joinErrors(
          std::move(errors),
          makeError("result[" + Twine(j) +
                    "]: --expected-output=" + options.expectedOutputs[j] +
                    ": " + llvm::toString(comparison.takeError())));
      continue;
    }
    bool isFloat = isFloatType(*value.type);
    if (comparison->shapeMismatch.empty()) {
      elements += comparison->elements;
      anyFloat |= isFloat;
    }
    if (Error error = checkResult(j, *comparison, isFloat, options))
      errors = llvm::joinErrors(std::move(errors), std::move(error));
  }
  if (errors)
    return errors;
  llvm::raw_ostream &os = llvm::outs();
  os << "expected outputs: " << count(results.size(), "result", "results")
     << " (" << count(elements, "element", "elements") << ") matched";
  if (anyFloat)
    os << ", floats " << describeTolerance(options);
  os << "\n";
  return Error::success();
}

} // namespace gpu_runner
