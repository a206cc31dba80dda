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

#include "wrappers/common/GpuDriver.h"
#include "wrappers/common/RuntimeError.h"

#include <hip/hip_runtime_api.h>

#include <string>

// Every HIP entry point the backend uses.
#define GPU_RUNNER_HIP_FUNCTIONS(X)                                            \
  X(hipInit)                                                                   \
  X(hipGetErrorName)                                                           \
  X(hipGetErrorString)                                                         \
  X(hipGetDeviceCount)                                                         \
  X(hipSetDevice)                                                              \
  X(hipDeviceGetAttribute)                                                     \
  X(hipDeviceGetName)                                                          \
  X(hipDeviceTotalMem)                                                         \
  X(hipGetDeviceProperties)                                                    \
  X(hipDeviceSynchronize)                                                      \
  X(hipMemGetInfo)                                                             \
  X(hipStreamCreateWithFlags)                                                  \
  X(hipStreamDestroy)                                                          \
  X(hipStreamQuery)                                                            \
  X(hipStreamSynchronize)                                                      \
  X(hipStreamWaitEvent)                                                        \
  X(hipEventCreateWithFlags)                                                   \
  X(hipEventDestroy)                                                           \
  X(hipEventRecord)                                                            \
  X(hipEventSynchronize)                                                       \
  X(hipEventElapsedTime)                                                       \
  X(hipFree)                                                                   \
  X(hipMemcpyAsync)                                                            \
  X(hipMemcpy2DAsync)                                                          \
  X(hipMemcpy3DAsync)                                                          \
  X(hipMemsetD8Async)                                                          \
  X(hipMemsetD16Async)                                                         \
  X(hipMemsetD32Async)                                                         \
  X(hipMemset2DAsync)                                                          \
  X(hipHostRegister)                                                           \
  X(hipHostUnregister)                                                         \
  X(hipModuleLoadData)                                                         \
  X(hipModuleUnload)                                                           \
  X(hipModuleGetFunction)                                                      \
  X(hipFuncGetAttribute)                                                       \
  X(hipModuleLaunchKernel)

namespace gpu_runner {
namespace hip {

/// Pointers to the HIP runtime's entry points, all non-null once loaded.
struct HipApi {
#define GPU_RUNNER_DECLARE_ENTRY(NAME) decltype(&::NAME) NAME = nullptr;
  GPU_RUNNER_HIP_FUNCTIONS(GPU_RUNNER_DECLARE_ENTRY)
#undef GPU_RUNNER_DECLARE_ENTRY
  // C++ overloads these two with templates: their C prototypes, spelled out.
  hipError_t (*hipMalloc)(void **, size_t) = nullptr;
  hipError_t (*hipMallocManaged)(void **, size_t, unsigned) = nullptr;
};

/// The names of the library that is opened, in the order they are tried.
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
