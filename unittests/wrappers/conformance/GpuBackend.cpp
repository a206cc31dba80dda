//===- GpuBackend.cpp - The conformance suite on a GPU backend ------------===//
//
// GpuRuntime over the driver of the backend the binary links (CUDA or HIP),
// as the suite's backend. Without a GPU, ctest runs it on the driver
// stand-in (standin/), loaded through GPU_RUNNER_CUDA_DRIVER or
// GPU_RUNNER_HIP_RUNTIME; each case initializes a runtime of its own on
// device 0, and finalizes it, so that the stand-in's leak check at exit
// sees every driver object released.
//
//===----------------------------------------------------------------------===//

#include "unittests/wrappers/conformance/Conformance.h"

#include "wrappers/gpu/GpuRuntime.h"

using namespace gpu_runner;
using namespace gpu_runner::conformance;

const BackendUnderTest &gpu_runner::conformance::backendUnderTest() {
  static const BackendUnderTest backend = [] {
    BackendUnderTest gpu;
    gpu.name = getBackendName(getBackend());
    gpu.create = [](std::unique_ptr<Runtime> &runtime) {
      auto made = std::make_unique<GpuRuntime>(getGpuDriver());
      GPU_RUNNER_RETURN_IF_ERROR(made->initialize(0));
      runtime = std::move(made);
      return Status();
    };
    gpu.allocation = [](uint64_t bytes, const std::string &madeBy) {
      return "the allocation of " + std::to_string(bytes) + " bytes made by " +
             madeBy;
    };
    // The driver checks registrations; the runtime passes its error on.
    bool cuda = getBackend() == Backend::Cuda;
    gpu.alreadyRegistered = cuda ? "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"
                                 : "hipErrorHostMemoryAlreadyRegistered";
    gpu.notRegistered = "is not the start of memory that gpu.host_register "
                        "registered";
    gpu.deviceMemoryRegistered =
        cuda ? "CUDA_ERROR_INVALID_VALUE" : "hipErrorInvalidValue";
    gpu.afterFinalize = "backend was not initialized";
    gpu.cannotRun = {
        {"[hold]",
         "holding a stream needs work of the test's own on it: the GPU "
         "runtime enqueues only driver calls, and the stand-in runs no "
         "kernel that could wait"}};
    return gpu;
  }();
  return backend;
}
