//===- VendorOps.h - The nvgpu and amdgpu ops each backend refuses --------===//
//
// The nvgpu dialect holds NVIDIA GPUs' own operations (mma.sync, ldmatrix,
// cp.async, TMA, mbarrier, wgmma), the amdgpu dialect AMD GPUs'. The
// kernels of gpu-runner-cuda lower the first with upstream's
// convert-nvgpu-to-nvvm, those of gpu-runner-hip the second with
// convert-amdgpu-to-rocdl; everywhere else such an op is an error that
// names it and says which backend compiles it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_CHECKS_VENDOROPS_H
#define GPU_RUNNER_LOWERING_CHECKS_VENDOROPS_H

#include "mlir/IR/Operation.h"

#include <string>

namespace gpu_runner {

/// What runs or compiles the code that holds an op.
enum class VendorOpPlace {
  HostBackend, ///< any code of gpu-runner-host, kernels included
  HostCode,    ///< the host code of gpu-runner-cuda or gpu-runner-hip
  NvvmKernel,  ///< a kernel of gpu-runner-cuda
  RocdlKernel, ///< a kernel of gpu-runner-hip
};

/// Why `op`, at `place`, cannot run, or "" where it can (and for an op of
/// neither dialect).
std::string getVendorOpRefusal(mlir::Operation *op, VendorOpPlace place);

/// Reports, at the op, the first op under `root` that `place` refuses
/// (getVendorOpRefusal), skipping gpu.modules when `place` is host code.
llvm::LogicalResult refuseVendorOps(mlir::Operation *root, VendorOpPlace place);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_CHECKS_VENDOROPS_H
