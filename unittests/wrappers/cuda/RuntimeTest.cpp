//===- RuntimeTest.cpp - The CUDA runtime where no driver is --------------===//
//
// What every build machine without a GPU can check of the CUDA backend: it
// starts, names the missing driver in every error, and never calls into a
// driver it did not load.
//
//===----------------------------------------------------------------------===//

#include "wrappers/cuda/DriverApi.h"
#include "wrappers/gpu/GpuRuntime.h"

#include "unittests/wrappers/TestSupport.h"

#include <dlfcn.h>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

bool driverIsInstalled() {
  void *library = dlopen(cuda::kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library)
    dlclose(library);
  return library != nullptr;
}

} // namespace

TEST_CASE("without a driver, the runtime says so and does nothing", "[cuda]") {
  if (driverIsInstalled()) {
    WARN("the NVIDIA driver is installed here: nothing to check");
    return;
  }
  GpuRuntime runtime(getGpuDriver());
  REQUIRE_ERROR(runtime.initialize(0), "the NVIDIA driver is not installed: "
                                       "libcuda.so.1 could not be loaded");
  std::string text;
  REQUIRE_ERROR(runtime.describeDevices(text),
                "the NVIDIA driver is not installed");
  std::string chip;
  REQUIRE_ERROR(runtime.getDeviceChip(0, chip),
                "the NVIDIA driver is not installed");
  REQUIRE_ERROR(runtime.setDefaultDevice(0, kLoc),
                "the NVIDIA driver is not installed");

  // Ops of a program that got this far anyway are refused, not run.
  void *stream = nullptr;
  REQUIRE_ERROR(runtime.createStream(stream, kLoc),
                "the CUDA backend was not initialized");
  int data = 0;
  REQUIRE_ERROR(runtime.memcpy(&data, &data, sizeof(data), nullptr, kLoc),
                "the CUDA backend was not initialized");
  void *memory = nullptr;
  REQUIRE_ERROR(runtime.allocate(16, nullptr, false, "gpu.alloc", memory),
                "the CUDA backend was not initialized");
  std::vector<GpuRuntime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  CHECK(leaks.empty());
}

TEST_CASE("driver errors read as name: meaning", "[cuda]") {
  // Without a driver there is no description to look up: the code is
  // named by number, never left out.
  if (!driverIsInstalled())
    CHECK(cuda::describeError(CUDA_ERROR_INVALID_VALUE) == "CUDA error 1");
  Status status = cuda::check(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc");
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().rfind("cuMemAlloc: ", 0) == 0);
  CHECK(cuda::check(CUDA_SUCCESS).ok());
}
