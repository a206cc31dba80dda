//===- MgpuWrappers.cpp - The mgpu ABI on the CUDA backend ----------------===//
//
// The mgpu ABI of the GPU backends is common/GpuWrappers.cpp, over the
// GpuDriver that DriverApi.cpp makes of the CUDA driver API; what is left
// here is the backend's name.
//
//===----------------------------------------------------------------------===//

#include "wrappers/Backend.h"

namespace gpu_runner {

const char *backendName() { return "cuda"; }

} // namespace gpu_runner
