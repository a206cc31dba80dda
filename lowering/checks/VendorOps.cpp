//===- VendorOps.cpp - The nvgpu and amdgpu ops each backend refuses ------===//

#include "lowering/checks/VendorOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

namespace gpu_runner {

namespace {

/// sm_90's asynchronous operations: the tensor memory accelerator, the
/// transaction barriers it completes, and warpgroup mma.
bool isAsyncHopperOp(StringRef name) {
  return name.starts_with("nvgpu.tma.") ||
         name.starts_with("nvgpu.mbarrier.") ||
         name.starts_with("nvgpu.warpgroup.");
}

} // namespace

std::string getVendorOpRefusal(Operation *op, VendorOpPlace place) {
  StringRef dialect = op->getName().getDialectNamespace();
  bool nvgpu = dialect == "nvgpu";
  if (!nvgpu && dialect != "amdgpu")
    return "";
  StringRef name = op->getName().getStringRef();
  switch (place) {
  case VendorOpPlace::HostBackend:
    if (!nvgpu)
      return "cannot run on the host backend: it is an AMD GPU operation; "
             "gpu-runner-hip compiles it";
    if (isAsyncHopperOp(name))
      return "cannot run on the host backend: it is one of sm_90's "
             "asynchronous operations (TMA copies, transaction barriers, "
             "warpgroup mma), which the host does not model; gpu-runner-cuda "
             "compiles it for sm_90a";
    return "cannot run on the host backend yet: the host has no lowering of "
           "the nvgpu dialect; gpu-runner-cuda compiles it for sm_80 and "
           "newer";
  case VendorOpPlace::HostCode:
    return "in host code has no lowering in gpu-runner: the nvgpu and amdgpu "
           "dialects are lowered in kernels only (TMA descriptors, which "
           "host code makes, need the CUDA driver's tensor maps)";
  case VendorOpPlace::NvvmKernel:
    if (nvgpu)
      return "";
    return "cannot be compiled for NVIDIA GPUs: it is an AMD GPU operation; "
           "gpu-runner-hip compiles it";
  case VendorOpPlace::RocdlKernel:
    if (!nvgpu)
      return "";
    return "cannot be compiled for AMD GPUs: it is an NVIDIA GPU operation; "
           "gpu-runner-cuda compiles it";
  }
  return "";
}

LogicalResult refuseVendorOps(Operation *root, VendorOpPlace place) {
  WalkResult result = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (place == VendorOpPlace::HostCode &&
        isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return WalkResult::skip();
    std::string refusal = getVendorOpRefusal(op, place);
    if (refusal.empty())
      return WalkResult::advance();
    op->emitError() << "'" << op->getName() << "' " << refusal;
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

} // namespace gpu_runner
