//===- MgpuWrappers.cpp - The mgpu ABI on the HIP backend -----------------===//
//
// The mgpu ABI of the GPU backends is common/GpuWrappers.cpp, over the
// GpuDriver that DriverApi.cpp makes of the HIP runtime API; what is left
// here is the backend's name.
//
//===----------------------------------------------------------------------===//

#include "wrappers/Backend.h"

namespace gpu_runner {

const char *backendName() { return "hip"; }

} // namespace gpu_runner
