//===- DriverApi.cpp - The CUDA driver API, loaded at run time ------------===//

#include "wrappers/cuda/DriverApi.h"

#include <dlfcn.h>

#include <mutex>

namespace gpu_runner {
namespace cuda {
namespace {

// Stringizes after macro expansion, so that cuda.h's versioned names are
// looked up: cuMemAlloc -> "cuMemAlloc_v2".
#define GPU_RUNNER_STRINGIZE_EXPANDED(NAME) GPU_RUNNER_STRINGIZE(NAME)
#define GPU_RUNNER_STRINGIZE(NAME) #NAME

DriverApi loadedApi;

Status load() {
  void *library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    return Status::error(
        std::string("the NVIDIA driver is not installed: ") + kDriverLibrary +
        " could not be loaded (" + (reason ? reason : "unknown reason") +
        "); gpu-runner-cuda runs programs only where the driver is, and "
        "gpu-runner-host runs them on the CPU");
  }
  // The library stays open for the life of the process.
#define GPU_RUNNER_LOOK_UP_ENTRY(NAME)                                         \
  loadedApi.NAME = reinterpret_cast<decltype(loadedApi.NAME)>(                 \
      dlsym(library, GPU_RUNNER_STRINGIZE_EXPANDED(NAME)));                    \
  if (!loadedApi.NAME)                                                         \
    return Status::error(std::string("the NVIDIA driver is too old: ") +       \
                         kDriverLibrary + " does not provide " +               \
                         GPU_RUNNER_STRINGIZE_EXPANDED(NAME) +                 \
                         "; gpu-runner-cuda needs a driver for CUDA 12.8 or "  \
                         "newer");
  GPU_RUNNER_CUDA_DRIVER_FUNCTIONS(GPU_RUNNER_LOOK_UP_ENTRY)
#undef GPU_RUNNER_LOOK_UP_ENTRY

  CUresult result = loadedApi.cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    return Status::error("no CUDA device: the NVIDIA driver is installed "
                         "but sees no GPU (" +
                         describeError(result) + ")");
  return check(result, "the NVIDIA driver failed to start (cuInit)");
}

} // namespace

Status loadDriver(const DriverApi *&api) {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = load(); });
  api = status.ok() ? &loadedApi : nullptr;
  return status;
}

const DriverApi &driver() { return loadedApi; }

std::string describeError(CUresult result) {
  const char *name = nullptr;
  const char *description = nullptr;
  // Both are safe to call before cuInit, and for an unknown code fail
  // without touching their output.
  if (loadedApi.cuGetErrorName)
    loadedApi.cuGetErrorName(result, &name);
  if (loadedApi.cuGetErrorString)
    loadedApi.cuGetErrorString(result, &description);
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
