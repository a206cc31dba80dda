//===- RefuseTargetOps.cpp - The kernel ops a GPU target cannot compile ---===//
//
// See the description of gpu-runner-refuse-target-ops in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/host/HostMma.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpu_runner {
#define GEN_PASS_DEF_REFUSETARGETOPS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// Why upstream's NVVM lowering cannot take `op`, or "".
std::string getNvvmReason(Operation *op) {
  if (isa<gpu::SubgroupMmaExtractThreadLocalOp,
          gpu::SubgroupMmaInsertThreadLocalOp>(op))
    return "upstream's NVVM lowering has no pattern for it; gpu-runner-host "
           "runs it";
  if (auto elementwise = dyn_cast<gpu::SubgroupMmaElementwiseOp>(op)) {
    switch (elementwise.getOpType()) {
    case gpu::MMAElementwiseOp::ADDF:
    case gpu::MMAElementwiseOp::MULF:
    case gpu::MMAElementwiseOp::DIVF:
    case gpu::MMAElementwiseOp::MAXF:
    case gpu::MMAElementwiseOp::MINF:
      break;
    default:
      return (gpu::stringifyMMAElementwiseOp(elementwise.getOpType()) +
              " is not among the element-wise ops upstream's NVVM lowering "
              "has (addf, mulf, divf, maxf, minf); gpu-runner-host runs it")
          .str();
    }
  }
  return "";
}

class RefuseTargetOpsPass
    : public impl::RefuseTargetOpsBase<RefuseTargetOpsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (!nvvm && isa<gpu::ClusterIdOp, gpu::ClusterDimOp,
                       gpu::ClusterDimBlocksOp, gpu::ClusterBlockIdOp>(op)) {
        op->emitError() << "'" << op->getName()
                        << "' cannot be compiled for AMD GPUs: HIP has no "
                           "thread block clusters (a CUDA feature of sm_90 "
                           "and newer); compute the block's position from "
                           "gpu.block_id instead";
        return WalkResult::interrupt();
      }
      if (!isMmaOp(op))
        return WalkResult::advance();
      if (!nvvm) {
        op->emitError() << "'" << op->getName()
                        << "' cannot be compiled for AMD GPUs: upstream MLIR "
                           "lowers the gpu dialect's mma ops to NVVM only; "
                           "run the program with gpu-runner-host or "
                           "gpu-runner-cuda";
        return WalkResult::interrupt();
      }
      std::string reason = getNvvmReason(op);
      if (reason.empty())
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' cannot be compiled for NVIDIA GPUs: " << reason;
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
