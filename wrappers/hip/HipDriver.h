//===- HipDriver.h - The GpuDriver of gpu-runner-hip ----------------------===//
//
// The HIP backend's driver: each GpuDriver method (../gpu/GpuDriver.h) as
// calls of the HIP runtime API, through the table of entry points loaded at
// run time (DynamicSymbols.h). The runtime itself, shared with CUDA, is
// ../gpu/GpuRuntime.h; HipDriver.cpp also defines getRuntime(), the
// backend's GpuRuntime over this driver.
//
// cuda/CudaDriver.h is its counterpart.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HIP_HIPDRIVER_H
#define GPU_RUNNER_WRAPPERS_HIP_HIPDRIVER_H

#include "wrappers/gpu/GpuDriver.h"

namespace gpu_runner {
namespace hip {

class HipDriver final : public GpuDriver {
public:
#include "wrappers/gpu/GpuDriverOverrides.inc"
  Result attachKernelIR(void *module, const void *bitcode, uint64_t bytes,
                        std::string &log) override;
};

} // namespace hip
} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HIP_HIPDRIVER_H
