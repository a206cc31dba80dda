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

/// The devices' chip: GPU_RUNNER_STANDIN_HIP_CHIP (gfx90a, gfx942, gfx1030
/// or gfx1100), else gfx90a.
struct Chip {
  /// "gfx90a", as code objects name it.
  const char *name;
  /// hipDeviceProp_t's gcnArchName and gcnArch.
  const char *archName;
  int gcnArch;
  /// Lanes per wave (AMDGPUUsage, "Processors": 64 on GFX9; GFX10 and later
  /// run waves of 32 by default).
  int waveSize;
};
const Chip &getChip();

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
