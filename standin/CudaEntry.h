//===- CudaEntry.h - What the CUDA entry points share ---------------------===//
//
// Internal to libgpu-runner-cuda-standin.so: what the files of its entry
// points (CudaDriver.cpp, CudaMemory.cpp, CudaModules.cpp) share: the
// device's architecture and limits, the Driver, and how an entry point
// returns its Call's code. None of it is exported: the linker script
// exports the cu* entry points and nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_CUDAENTRY_H
#define GPU_RUNNER_STANDIN_CUDAENTRY_H

#include "standin/Driver.h"

#include <cuda.h>

namespace gpu_runner {
namespace standin {
namespace cuda {

inline constexpr int kArch = 90;

/// The device's limits, from its attributes (CudaDriver.cpp).
DeviceLimits getLimits();

inline Driver &driver() { return Driver::get(); }

inline CUresult fail(Call &call, Error error) {
  return static_cast<CUresult>(call.done(error));
}

inline CUresult finish(Call &call, Error error) {
  return static_cast<CUresult>(call.done(error));
}

} // namespace cuda
} // namespace standin
} // namespace gpu_runner

#define ENTER(call, needs)                                                     \
  if (int code = (call).enter(Call::Needs::needs))                             \
  return static_cast<CUresult>(code)

#endif // GPU_RUNNER_STANDIN_CUDAENTRY_H
