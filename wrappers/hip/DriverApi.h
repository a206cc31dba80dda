//===- DriverApi.h - The HIP runtime API, loaded at run time --------------===//
//
// gpu-runner-hip does not link against libamdhip64: a binary that did would
// not start where ROCm is not installed, where it should still print its
// version, its help, compile kernels (--compile-only) and say clearly why it
// cannot run a program. The library is opened with dlopen on first use, and
// every entry point the backend calls is looked up once into one table,
// called like the functions in hip_runtime_api.h (`hip().hipMalloc(...)`).
// HipDriver (DriverApi.cpp) is the GpuDriver over it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HIP_DRIVERAPI_H
#define GPU_RUNNER_WRAPPERS_HIP_DRIVERAPI_H

#include "wrappers/common/RuntimeError.h"
#include "wrappers/gpu/GpuDriver.h"

#include <hip/hip_runtime_api.h>

#include <string>

// Every HIP entry point the backend uses, all required; C++ overloads two of
// them with templates, so they come with their C prototypes.
using HipMallocFunction = hipError_t (*)(void **, size_t);
using HipMallocManagedFunction = hipError_t (*)(void **, size_t, unsigned);
#define GPU_RUNNER_HIP_FUNCTIONS(ENTRY, TYPED_ENTRY)                           \
  ENTRY(hipInit)                                                               \
  ENTRY(hipGetErrorName)                                                       \
  ENTRY(hipGetErrorString)                                                     \
  ENTRY(hipGetDeviceCount)                                                     \
  ENTRY(hipSetDevice)                                                          \
  ENTRY(hipDeviceGetAttribute)                                                 \
  ENTRY(hipDeviceGetName)                                                      \
  ENTRY(hipDeviceTotalMem)                                                     \
  ENTRY(hipGetDeviceProperties)                                                \
  ENTRY(hipDeviceSynchronize)                                                  \
  ENTRY(hipMemGetInfo)                                                         \
  ENTRY(hipStreamCreateWithFlags)                                              \
  ENTRY(hipStreamDestroy)                                                      \
  ENTRY(hipStreamQuery)                                                        \
  ENTRY(hipStreamSynchronize)                                                  \
  ENTRY(hipStreamWaitEvent)                                                    \
  ENTRY(hipEventCreateWithFlags)                                               \
  ENTRY(hipEventDestroy)                                                       \
  ENTRY(hipEventRecord)                                                        \
  ENTRY(hipEventQuery)                                                         \
  ENTRY(hipEventSynchronize)                                                   \
  ENTRY(hipEventElapsedTime)                                                   \
  ENTRY(hipFree)                                                               \
  ENTRY(hipMemcpyAsync)                                                        \
  ENTRY(hipMemcpy2DAsync)                                                      \
  ENTRY(hipMemcpy3DAsync)                                                      \
  ENTRY(hipMemsetD8Async)                                                      \
  ENTRY(hipMemsetD16Async)                                                     \
  ENTRY(hipMemsetD32Async)                                                     \
  ENTRY(hipMemset2DAsync)                                                      \
  ENTRY(hipHostRegister)                                                       \
  ENTRY(hipHostUnregister)                                                     \
  ENTRY(hipModuleLoadData)                                                     \
  ENTRY(hipModuleUnload)                                                       \
  ENTRY(hipModuleGetFunction)                                                  \
  ENTRY(hipFuncGetAttribute)                                                   \
  ENTRY(hipModuleLaunchKernel)                                                 \
  TYPED_ENTRY(hipMalloc, HipMallocFunction)                                    \
  TYPED_ENTRY(hipMallocManaged, HipMallocManagedFunction)

namespace gpu_runner {
namespace hip {

/// Pointers to the HIP runtime's entry points, all non-null once loaded.
struct HipApi {
#define GPU_RUNNER_DECLARE_ENTRY(NAME) decltype(&::NAME) NAME = nullptr;
#define GPU_RUNNER_DECLARE_TYPED_ENTRY(NAME, TYPE) TYPE NAME = nullptr;
  GPU_RUNNER_HIP_FUNCTIONS(GPU_RUNNER_DECLARE_ENTRY,
                           GPU_RUNNER_DECLARE_TYPED_ENTRY)
#undef GPU_RUNNER_DECLARE_ENTRY
#undef GPU_RUNNER_DECLARE_TYPED_ENTRY
};

/// The names of the library that is opened, in the order they are tried,
/// unless GPU_RUNNER_HIP_RUNTIME names another.
inline constexpr const char *kHipLibraries[] = {"libamdhip64.so.5",
                                                "libamdhip64.so"};

/// Opens the HIP runtime and calls hipInit, once per process; later calls
/// return the first call's outcome.
Status loadHip(const HipApi *&api);

/// The loaded runtime; only valid after loadHip succeeded.
const HipApi &hip();

/// "hipErrorOutOfMemory: out of memory": an error's name and description.
std::string describeError(hipError_t result);

} // namespace hip
} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HIP_DRIVERAPI_H
