//===- DriverApi.h - The CUDA driver API, loaded at run time --------------===//
//
// gpu-runner-cuda does not link against libcuda: a binary that did would not
// start on a machine without the NVIDIA driver, where it should still print
// its version, its help, compile kernels (--compile-only) and say clearly why
// it cannot run a program. Instead the driver library is opened with dlopen
// on first use, and every entry point the backend calls is looked up once
// into one table.
//
// The table's members are named like the functions in cuda.h and are called
// the same way (`driver().cuMemAlloc(...)`); cuda.h's macros map both to the
// versioned symbols (cuMemAlloc_v2, ...), so the exported name that is looked
// up is always the one the header's prototype describes.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_CUDA_DRIVERAPI_H
#define GPU_RUNNER_WRAPPERS_CUDA_DRIVERAPI_H

#include "wrappers/common/RuntimeError.h"
#include "wrappers/gpu/GpuDriver.h"

#include <cuda.h>

#include <string>

// Every driver entry point the backend uses: REQUIRED ones the backend
// cannot start without, OPTIONAL ones that only some programs need.
#define GPU_RUNNER_CUDA_DRIVER_FUNCTIONS(REQUIRED, OPTIONAL)                   \
  REQUIRED(cuInit)                                                             \
  REQUIRED(cuDriverGetVersion)                                                 \
  REQUIRED(cuGetErrorName)                                                     \
  REQUIRED(cuGetErrorString)                                                   \
  REQUIRED(cuDeviceGetCount)                                                   \
  REQUIRED(cuDeviceGet)                                                        \
  REQUIRED(cuDeviceGetName)                                                    \
  REQUIRED(cuDeviceGetAttribute)                                               \
  REQUIRED(cuDeviceTotalMem)                                                   \
  REQUIRED(cuDevicePrimaryCtxRetain)                                           \
  REQUIRED(cuDevicePrimaryCtxRelease)                                          \
  REQUIRED(cuCtxSetCurrent)                                                    \
  REQUIRED(cuCtxSynchronize)                                                   \
  REQUIRED(cuStreamCreate)                                                     \
  REQUIRED(cuStreamDestroy)                                                    \
  REQUIRED(cuStreamSynchronize)                                                \
  REQUIRED(cuStreamQuery)                                                      \
  REQUIRED(cuStreamWaitEvent)                                                  \
  REQUIRED(cuEventCreate)                                                      \
  REQUIRED(cuEventDestroy)                                                     \
  REQUIRED(cuEventRecord)                                                      \
  REQUIRED(cuEventQuery)                                                       \
  REQUIRED(cuEventSynchronize)                                                 \
  REQUIRED(cuEventElapsedTime)                                                 \
  REQUIRED(cuMemGetInfo)                                                       \
  REQUIRED(cuMemAlloc)                                                         \
  REQUIRED(cuMemAllocManaged)                                                  \
  REQUIRED(cuMemFree)                                                          \
  REQUIRED(cuMemcpyAsync)                                                      \
  REQUIRED(cuMemcpy2DAsync)                                                    \
  REQUIRED(cuMemcpy3DAsync)                                                    \
  REQUIRED(cuMemsetD8Async)                                                    \
  REQUIRED(cuMemsetD16Async)                                                   \
  REQUIRED(cuMemsetD32Async)                                                   \
  REQUIRED(cuMemsetD2D8Async)                                                  \
  REQUIRED(cuMemsetD2D16Async)                                                 \
  REQUIRED(cuMemsetD2D32Async)                                                 \
  REQUIRED(cuMemHostRegister)                                                  \
  REQUIRED(cuMemHostUnregister)                                                \
  REQUIRED(cuModuleLoadData)                                                   \
  REQUIRED(cuModuleLoadDataEx)                                                 \
  REQUIRED(cuModuleUnload)                                                     \
  REQUIRED(cuModuleGetFunction)                                                \
  REQUIRED(cuFuncGetAttribute)                                                 \
  REQUIRED(cuFuncSetAttribute)                                                 \
  REQUIRED(cuLaunchKernel)                                                     \
  /* Launches with thread block clusters. */                                   \
  OPTIONAL(cuLaunchKernelEx)

namespace gpu_runner {
namespace cuda {

/// Pointers to the driver's entry points, once loaded: all non-null but the
/// optional ones the driver lacks.
struct DriverApi {
#define GPU_RUNNER_DECLARE_ENTRY(NAME) decltype(&::NAME) NAME = nullptr;
  GPU_RUNNER_CUDA_DRIVER_FUNCTIONS(GPU_RUNNER_DECLARE_ENTRY,
                                   GPU_RUNNER_DECLARE_ENTRY)
#undef GPU_RUNNER_DECLARE_ENTRY
};

/// The name of the driver library that is opened, unless
/// GPU_RUNNER_CUDA_DRIVER names another.
inline constexpr const char *kDriverLibrary = "libcuda.so.1";

/// Opens the driver (gpu/DriverLibrary.h) and calls cuInit, once per
/// process; later calls return the first call's outcome. CudaDriver
/// (DriverApi.cpp) is the GpuDriver over it that getGpuDriver() returns in
/// gpu-runner-cuda. Fails with a sentence that names what is missing: no
/// driver library, a driver too old for a required entry point, or cuInit's
/// error (no device, ...).
Status loadDriver(const DriverApi *&api);

/// The loaded driver; only valid after loadDriver succeeded.
const DriverApi &driver();

/// "CUDA_ERROR_OUT_OF_MEMORY: out of memory": a driver error's name and
/// description, as every CUDA error message ends.
std::string describeError(CUresult result);

/// Success, or an error whose message is "<what>: <describeError(result)>",
/// or just the description when `what` is empty.
Status check(CUresult result, const std::string &what = "");

} // namespace cuda
} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_CUDA_DRIVERAPI_H
