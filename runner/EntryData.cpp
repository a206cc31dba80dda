//===- EntryData.cpp - The entry point called with data -------------------===//

#include "runner/EntryData.h"

#include "runner/DataComparison.h"
#include "runner/DataPrinter.h"
#include "runner/NumpyFile.h"
#include "wrappers/Backend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

#include <cstdio>

#include <cstring>
#include <memory>

using llvm::failure;
using llvm::FailureOr;
using llvm::LogicalResult;
using llvm::StringRef;
using llvm::success;
using llvm::Twine;

namespace gpu_runner {

namespace {

LogicalResult reject(const Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return failure();
}

/// An error at the entry point's location, where it has one.
LogicalResult rejectAt(const EntrySignature &signature, const Twine &message) {
  if (!signature.location.empty())
    llvm::errs() << signature.location << ": ";
  llvm::errs() << "error: " << message << "\n";
  return failure();
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

/// memref.get_global's descriptor has this as its allocated pointer: the
/// memory is the program's global, not the heap's.
constexpr uintptr_t kGlobalMarker = 0xdeadbeef;

} // namespace

namespace {

/// --launch's kernel, grid and block, and their shared memory; none
/// without --launch. Each flag is checked, and parsed, here only.
FailureOr<std::optional<LaunchTarget>>
parseLaunchFlags(const RunnerOptions &options) {
  if (options.launch.empty()) {
    if (!options.grid.empty() || !options.block.empty() ||
        options.dynamicSharedMemory.getNumOccurrences())
      return reject("--grid, --block and --dynamic-shared-memory are for "
                    "--launch, which names the kernel to run");
    return std::optional<LaunchTarget>();
  }
  StringRef module, kernel;
  if (!splitLaunch(options.launch, module, kernel))
    return reject("--launch=" + options.launch +
                  ": name the kernel as MODULE::KERNEL, e.g. "
                  "--launch=kernels::saxpy");
  if (options.entryPoint.getNumOccurrences())
    return reject("--launch runs a kernel with host code of its own; -e "
                  "names a host function to run: give one of them");
  if (options.grid.empty() || options.block.empty())
    return reject("--launch needs --grid and --block: the blocks and the "
                  "threads of each, as X[,Y[,Z]]");
  LaunchTarget target;
  target.module = module.str();
  target.kernel = kernel.str();
  if (!parseDims(options.grid, target.grid))
    return reject("--grid=" + options.grid +
                  ": give one to three sizes from 1 to 2147483647, "
                  "separated by commas: X[,Y[,Z]]");
  if (!parseDims(options.block, target.block))
    return reject("--block=" + options.block +
                  ": give one to three sizes from 1 to 2147483647, "
                  "separated by commas: X[,Y[,Z]]");
  target.dynamicSharedMemory = options.dynamicSharedMemory;
  return std::optional<LaunchTarget>(std::move(target));
}

/// The values of `flag` (--input or --expected-output), in order.
LogicalResult parseValues(const llvm::cl::list<std::string> &flag,
                          std::vector<DataValue> &values) {
  for (const std::string &text : flag) {
    llvm::Expected<DataValue> value = parseDataValue(text);
    if (!value) {
      // A mistake in the text says where it is; one in a file names it.
      std::string message = llvm::toString(value.takeError());
      if (!StringRef(message).starts_with("column "))
        return reject(message);
      return reject("--" + flag.ArgStr + "=" + text + ": " + message);
    }
    values.push_back(std::move(*value));
  }
  return success();
}

} // namespace

FailureOr<RunData> parseDataFlags(const RunnerOptions &options) {
  bool anyData = !options.inputs.empty() || !options.outputs.empty() ||
                 !options.expectedOutputs.empty() || !options.launch.empty();
  if (!options.callsWithData() && anyData)
    return reject("--entry-point-result calls the entry point as mlir-runner "
                  "does, without arguments; leave it out to give --input, "
                  "--output, --expected-output or --launch");
  for (const std::string &output : options.outputs)
    if (output != "-" && (output.size() < 2 || output[0] != '@'))
      return reject("--output=" + output +
                    ": give @FILE.npy, @FILE (raw bytes) or - (print it)");
  if (!(options.atol >= 0) || !(options.rtol >= 0))
    return reject("--atol and --rtol must be 0 or more");
  RunData data;
  FailureOr<std::optional<LaunchTarget>> launch = parseLaunchFlags(options);
  if (failed(launch))
    return failure();
  data.launch = std::move(*launch);
  if (failed(parseValues(options.inputs, data.inputs)) ||
      failed(parseValues(options.expectedOutputs, data.expected)))
    return failure();
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

FailureOr<std::unique_ptr<EntryCall>>
EntryCall::prepare(const EntrySignature &signature, RunData &data,
                   const RunnerOptions &options) {
  std::unique_ptr<EntryCall> call(new EntryCall(signature));
  std::string what = options.launch.empty()
                         ? "entry point '" + signature.name + "'"
                         : "kernel '" + options.launch + "'";
  size_t params = signature.params.size();
  if (data.inputs.size() != params)
    return rejectAt(signature,
                    what + " takes " + count(params, "argument", "arguments") +
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
      return rejectAt(signature, what + " has " +
                                     count(results, "result", "results") +
                                     (signature.resultsAreMemRefParams
                                          ? " (its memref arguments)"
                                          : "") +
                                     ", but --" + flag->ArgStr + " was given " +
                                     count(flag->size(), "time", "times") +
                                     ": give one for each result");

  for (auto [i, param] : llvm::enumerate(signature.params)) {
    DataValue &value = data.inputs[i];
    std::string prefix =
        "argument " + std::to_string(i) + ": expected " + param.text + ", got ";
    unsigned size = getElementSize(param.element);
    if (!value.type) {
      // An untyped scalar takes the parameter's type: a scalar's, or a 0-d
      // memref's.
      if (param.isMemRef && !param.shape.empty())
        return rejectAt(signature, prefix + value.describe());
      value.type = param.element;
      if (!value.data.allocate(size))
        return rejectAt(signature, "cannot allocate argument " + Twine(i));
      if (llvm::Error error =
              convertLiteral(value.literal, param.element, value.data.data()))
        return rejectAt(signature, prefix + "'" + value.literal + "': " +
                                       llvm::toString(std::move(error)));
    }
    bool typeMatches = sameType(*value.type, param.element);
    if (!param.isMemRef) {
      if (!typeMatches || !value.shape.empty())
        return rejectAt(signature, prefix + value.describe());
      std::vector<int64_t> slot(1, 0);
      std::memcpy(slot.data(), value.data.data(), size);
      call->argSlots.push_back(std::move(slot));
      continue;
    }
    bool shapeMatches = value.shape.size() == param.shape.size();
    for (size_t d = 0; shapeMatches && d < param.shape.size(); ++d)
      shapeMatches =
          param.shape[d] == kDynamicSize || param.shape[d] == value.shape[d];
    if (!typeMatches || !shapeMatches)
      return rejectAt(signature, prefix + value.describe());
    // The descriptor: allocated and aligned pointers, offset, sizes,
    // strides.
    std::vector<int64_t> descriptor;
    int64_t base = int64_t(reinterpret_cast<uintptr_t>(value.data.data()));
    descriptor.push_back(base);
    descriptor.push_back(base);
    descriptor.push_back(0);
    descriptor.insert(descriptor.end(), value.shape.begin(), value.shape.end());
    std::vector<int64_t> strides = getStrides(value.shape);
    descriptor.insert(descriptor.end(), strides.begin(), strides.end());
    call->argSlots.push_back(std::move(descriptor));
  }
  call->args = std::move(data.inputs);
  for (const EntryType &result : signature.results)
    call->resultSlots.emplace_back(
        result.isMemRef ? 3 + 2 * result.shape.size() : 1, 0);
  for (std::vector<int64_t> &slot : call->argSlots)
    call->pointers.push_back(slot.data());
  for (std::vector<int64_t> &slot : call->resultSlots)
    call->pointers.push_back(slot.data());
  return call;
}

void EntryCall::call(void *packed) {
  reinterpret_cast<void (*)(void **)>(packed)(pointers.data());
}

FailureOr<std::vector<DataValue>>
EntryCall::takeResults(void (*programFree)(void *)) {
  std::vector<DataValue> results;
  if (signature.resultsAreMemRefParams) {
    // Copies: the arguments stay, for the next call of a benchmark.
    for (auto [param, arg] : llvm::zip(signature.params, args)) {
      if (!param.isMemRef)
        continue;
      DataValue copy;
      copy.type = arg.type;
      copy.shaped = true;
      copy.shape = arg.shape;
      if (!copy.data.allocate(arg.data.size()))
        return reject("cannot allocate " + Twine(arg.data.size()) +
                      " bytes for a result");
      if (arg.data.size())
        std::memcpy(copy.data.data(), arg.data.data(), arg.data.size());
      results.push_back(std::move(copy));
    }
    return results;
  }
  std::vector<void *> toFree;
  LogicalResult status = success();
  for (auto [j, type] : llvm::enumerate(signature.results)) {
    const std::vector<int64_t> &slot = resultSlots[j];
    DataValue value;
    value.type = type.element;
    unsigned size = getElementSize(type.element);
    if (!type.isMemRef) {
      value.data.allocate(size);
      std::memcpy(value.data.data(), slot.data(), size);
      results.push_back(std::move(value));
      continue;
    }
    value.shaped = true;
    size_t rank = type.shape.size();
    void *allocated = reinterpret_cast<void *>(slot[0]);
    const char *aligned = reinterpret_cast<const char *>(slot[1]);
    int64_t offset = slot[2];
    llvm::ArrayRef<int64_t> sizes(slot.data() + 3, rank);
    llvm::ArrayRef<int64_t> strides(slot.data() + 3 + rank, rank);
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
    if (!sane) {
      status = reject(name + ": the returned memref's sizes are not " +
                      "those of a memref gpu-runner can read");
      continue;
    }
    if (elements && !aligned) {
      status = reject(name + ": the returned memref is null");
      continue;
    }
    std::string device = describeDeviceMemory(aligned);
    if (elements && !device.empty()) {
      status =
          reject(name + ": the returned memref is device memory (" + device +
                 "): copy it to host memory (gpu.memcpy) and return "
                 "that");
      continue;
    }
    if (!value.data.allocate(elements * size)) {
      status = reject(name + ": cannot allocate " + Twine(elements * size) +
                      " bytes to read it");
      continue;
    }
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
    bool ours = llvm::any_of(args, [&](const DataValue &arg) {
      return arg.data.data() == allocated;
    });
    if (allocated && !ours &&
        reinterpret_cast<uintptr_t>(allocated) != kGlobalMarker &&
        !llvm::is_contained(toFree, allocated))
      toFree.push_back(allocated);
    results.push_back(std::move(value));
  }
  for (void *pointer : toFree)
    programFree(pointer);
  if (failed(status))
    return failure();
  return results;
}

LogicalResult reportResults(const EntrySignature &signature,
                            std::vector<DataValue> &results,
                            const RunData &data, const RunnerOptions &options) {
  std::vector<const EntryType *> types;
  if (signature.resultsAreMemRefParams) {
    for (const EntryType &param : signature.params)
      if (param.isMemRef)
        types.push_back(&param);
  } else {
    for (const EntryType &result : signature.results)
      types.push_back(&result);
  }
  llvm::raw_ostream &os = llvm::outs();
  for (auto [j, value] : llvm::enumerate(results)) {
    std::string output = options.outputs.empty() ? "-" : options.outputs[j];
    if (output == "-") {
      os << "result[" << j << "]: " << types[j]->text << "\n";
      printData(os, value);
      continue;
    }
    StringRef path = StringRef(output).drop_front();
    std::error_code error;
    llvm::raw_fd_ostream file(path, error, llvm::sys::fs::OF_None);
    if (!error) {
      if (path.ends_with(".npy"))
        file << writeNpy(value);
      else
        file.write(value.data.data(), value.data.size());
      file.close();
      if (file.has_error()) {
        error = file.error();
        file.clear_error();
      }
    }
    if (error)
      return reject("--output=" + output +
                    ": cannot write it: " + error.message());
  }
  if (data.expected.empty())
    return success();

  Tolerance tolerance;
  tolerance.atol = options.atol;
  tolerance.rtol = options.rtol;
  tolerance.nanEqual = options.nanEqual;
  LogicalResult status = success();
  uint64_t elements = 0;
  bool anyFloat = false;
  for (auto [j, value] : llvm::enumerate(results)) {
    llvm::Expected<Comparison> comparison =
        compareData(value, data.expected[j], tolerance);
    std::string name = "result[" + std::to_string(j) + "]";
    if (!comparison) {
      status =
          reject(name + ": --expected-output=" + options.expectedOutputs[j] +
                 ": " + llvm::toString(comparison.takeError()));
      continue;
    }
    if (!comparison->shapeMismatch.empty()) {
      status = reject(name + ": " + comparison->shapeMismatch);
      continue;
    }
    elements += comparison->elements;
    anyFloat |= isFloatType(*value.type);
    if (comparison->mismatches == 0)
      continue;
    std::string rule =
        isFloatType(*value.type) ? describeTolerance(options) : "exactly";
    status = reject(
        name + ": " + Twine(comparison->mismatches) + " of " +
        count(comparison->elements, "element differs", "elements differ") +
        " from the expected value (compared " + rule + ")");
    for (const std::string &line : comparison->firstMismatches)
      llvm::errs() << "  " << line << "\n";
    if (comparison->mismatches > comparison->firstMismatches.size())
      llvm::errs() << "  ... and "
                   << comparison->mismatches -
                          comparison->firstMismatches.size()
                   << " more\n";
  }
  if (failed(status))
    return failure();
  os << "expected outputs: " << count(results.size(), "result", "results")
     << " (" << count(elements, "element", "elements") << ") matched";
  if (anyFloat)
    os << ", floats " << describeTolerance(options);
  os << "\n";
  return success();
}

} // namespace gpu_runner
