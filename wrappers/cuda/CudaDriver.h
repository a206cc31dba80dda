//===- CudaDriver.h - The GpuDriver of gpu-runner-cuda --------------------===//
//
// The CUDA backend's driver: each GpuDriver method (../gpu/GpuDriver.h) as
// calls of the CUDA driver API, through the table of entry points loaded at
// run time (DynamicSymbols.h). The runtime itself, shared with HIP, is
// ../gpu/GpuRuntime.h; CudaDriver.cpp also defines getRuntime(), the
// backend's GpuRuntime over this driver.
//
// hip/HipDriver.h is its counterpart.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_CUDA_CUDADRIVER_H
#define GPU_RUNNER_WRAPPERS_CUDA_CUDADRIVER_H

#include "wrappers/gpu/GpuDriver.h"

namespace gpu_runner {
namespace cuda {

class CudaDriver final : public GpuDriver {
public:
#include "wrappers/gpu/GpuDriverOverrides.inc"
  Result attachKernelIR(void *module, const void *bitcode, uint64_t bytes,
                        std::string &log) override;
};

} // namespace cuda
} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_CUDA_CUDADRIVER_H
