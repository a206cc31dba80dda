//===- HipEntry.h - What the HIP entry points share -----------------------===//
//
// Internal to libgpu-runner-hip-standin.so: what the files of its entry
// points (HipRuntime.cpp, HipMemory.cpp, HipModules.cpp) share: the
// device's limits, the Driver, and how an entry point returns its Call's
// code. None of it is exported: the linker script exports the hip* entry
// points and nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_HIPENTRY_H
#define GPU_RUNNER_STANDIN_HIPENTRY_H

#include "standin/Driver.h"

#include <hip/hip_runtime_api.h>

namespace gpu_runner {
namespace standin {
namespace hip {

/// The device's limits, from its attributes (HipRuntime.cpp).
DeviceLimits getLimits();

inline Driver &driver() { return Driver::get(); }

inline hipError_t finish(Call &call, Error error) {
  return static_cast<hipError_t>(call.done(error));
}

} // namespace hip
} // namespace standin
} // namespace gpu_runner

#define ENTER(call, needs)                                                     \
  if (int code = (call).enter(Call::Needs::needs))                             \
  return static_cast<hipError_t>(code)

#endif // GPU_RUNNER_STANDIN_HIPENTRY_H
