//===- DynamicSymbols.cpp - The HIP runtime, loaded at run time -----------===//

#include "wrappers/hip/DynamicSymbols.h"

#include "wrappers/gpu/DriverLibrary.h"

#include <iterator>
#include <mutex>
#include <vector>

namespace gpu_runner {
namespace hip {
namespace {

DynamicSymbols loadedSymbols;

Status load() {
  static const DriverLibrary library = {
      "GPU_RUNNER_HIP_RUNTIME",
      {std::begin(kLibraryNames), std::end(kLibraryNames)},
      "the HIP runtime",
      "libamdhip64",
      "gpu-runner-hip runs programs only where ROCm is",
      "",
      {"hipInit", "hipRuntimeGetVersion"},
      "a HIP runtime"};
  const std::vector<DriverEntryPoint> entries = {
#define DRIVER_SYMBOL_ENTRY(NAME, OPTIONAL)                                    \
  {#NAME, reinterpret_cast<void **>(&loadedSymbols.NAME), OPTIONAL},
#define DRIVER_REQUIRED_SYMBOL(NAME) DRIVER_SYMBOL_ENTRY(NAME, false)
#define DRIVER_OPTIONAL_SYMBOL(NAME) DRIVER_SYMBOL_ENTRY(NAME, true)
#define DRIVER_REQUIRED_SYMBOL_TYPED(NAME, TYPE)                               \
  DRIVER_SYMBOL_ENTRY(NAME, false)
#include "wrappers/hip/DynamicSymbols.def"
#undef DRIVER_REQUIRED_SYMBOL
#undef DRIVER_OPTIONAL_SYMBOL
#undef DRIVER_REQUIRED_SYMBOL_TYPED
#undef DRIVER_SYMBOL_ENTRY
  };
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLibrary(library, entries));

  hipError_t result = loadedSymbols.hipInit(0);
  if (result == hipErrorNoDevice || result == hipErrorInvalidDevice)
    return Status::error("no HIP device: the HIP runtime is installed but "
                         "sees no GPU (" +
                         describeError(result) + ")");
  if (result != hipSuccess)
    return Status::error("the HIP runtime failed to start (hipInit): " +
                         describeError(result));
  return Status();
}

} // namespace

Status loadDynamicSymbols() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = load(); });
  return status;
}

const DynamicSymbols &symbols() { return loadedSymbols; }

std::string describeError(hipError_t result) {
  const char *name = loadedSymbols.hipGetErrorName
                         ? loadedSymbols.hipGetErrorName(result)
                         : nullptr;
  const char *description = loadedSymbols.hipGetErrorString
                                ? loadedSymbols.hipGetErrorString(result)
                                : nullptr;
  std::string text =
      name ? name : "HIP error " + std::to_string(static_cast<int>(result));
  // ROCm 5.2's hipGetErrorString returns the error's name again.
  if (description && text != description)
    text += std::string(": ") + description;
  return text;
}

} // namespace hip
} // namespace gpu_runner
