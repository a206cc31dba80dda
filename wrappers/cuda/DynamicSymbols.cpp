//===- DynamicSymbols.cpp - The CUDA driver, loaded at run time -----------===//

#include "wrappers/cuda/DynamicSymbols.h"

#include "wrappers/gpu/DriverLibrary.h"

#include <iterator>
#include <mutex>
#include <vector>

namespace gpu_runner {
namespace cuda {
namespace {

// Stringizes after macro expansion, so that cuda.h's versioned names are
// looked up: cuMemAlloc -> "cuMemAlloc_v2".
#define GPU_RUNNER_STRINGIZE_EXPANDED(NAME) GPU_RUNNER_STRINGIZE(NAME)
#define GPU_RUNNER_STRINGIZE(NAME) #NAME

DynamicSymbols loadedSymbols;

Status load() {
  static const DriverLibrary library = {
      "GPU_RUNNER_CUDA_DRIVER",
      {std::begin(kLibraryNames), std::end(kLibraryNames)},
      "the NVIDIA driver",
      kLibraryNames[0],
      "gpu-runner-cuda runs programs only where the driver is",
      "; gpu-runner-cuda needs a driver for CUDA 12.8 or newer",
      {"cuInit", "cuDriverGetVersion"},
      "a CUDA driver"};
  const std::vector<DriverEntryPoint> entries = {
#define DRIVER_SYMBOL_ENTRY(NAME, OPTIONAL)                                    \
  {GPU_RUNNER_STRINGIZE_EXPANDED(NAME),                                        \
   reinterpret_cast<void **>(&loadedSymbols.NAME), OPTIONAL},
#define DRIVER_REQUIRED_SYMBOL(NAME) DRIVER_SYMBOL_ENTRY(NAME, false)
#define DRIVER_OPTIONAL_SYMBOL(NAME) DRIVER_SYMBOL_ENTRY(NAME, true)
#define DRIVER_REQUIRED_SYMBOL_TYPED(NAME, TYPE)                               \
  DRIVER_SYMBOL_ENTRY(NAME, false)
#include "wrappers/cuda/DynamicSymbols.def"
#undef DRIVER_REQUIRED_SYMBOL
#undef DRIVER_OPTIONAL_SYMBOL
#undef DRIVER_REQUIRED_SYMBOL_TYPED
#undef DRIVER_SYMBOL_ENTRY
  };
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLibrary(library, entries));

  CUresult result = loadedSymbols.cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    return Status::error("no CUDA device: the NVIDIA driver is installed "
                         "but sees no GPU (" +
                         describeError(result) + ")");
  return check(result, "the NVIDIA driver failed to start (cuInit)");
}

} // namespace

Status loadDynamicSymbols() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = load(); });
  return status;
}

const DynamicSymbols &symbols() { return loadedSymbols; }

std::string describeError(CUresult result) {
  const char *name = nullptr;
  const char *description = nullptr;
  // Both are safe to call before cuInit, and for an unknown code fail
  // without touching their output.
  if (loadedSymbols.cuGetErrorName)
    loadedSymbols.cuGetErrorName(result, &name);
  if (loadedSymbols.cuGetErrorString)
    loadedSymbols.cuGetErrorString(result, &description);
  std::string text =
      name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (description)
    text += std::string(": ") + description;
  return text;
}

Status check(CUresult result, const std::string &what) {
  if (result == CUDA_SUCCESS)
    return Status();
  if (what.empty())
    return Status::error(describeError(result));
  return Status::error(what + ": " + describeError(result));
}

} // namespace cuda
} // namespace gpu_runner
