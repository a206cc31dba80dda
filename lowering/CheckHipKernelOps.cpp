//===- CheckHipKernelOps.cpp - Kernel ops AMD GPUs do not have
//-------------===//
//
// Upstream's ROCDL lowering leaves the gpu ops an AMD GPU has no equivalent
// for unconverted, and reports them as a failure to legalize. This pass
// names each one with the reason first, at the op.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKHIPKERNELOPS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// Why an AMD GPU cannot run `op`, or an empty string.
llvm::StringRef getMissingReason(Operation *op) {
  if (isa<gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterDimBlocksOp,
          gpu::ClusterBlockIdOp>(op))
    return "HIP has no thread block clusters (a CUDA feature of sm_90 and "
           "newer); compute the block's position from gpu.block_id instead";
  return {};
}

class CheckHipKernelOpsPass
    : public impl::CheckHipKernelOpsBase<CheckHipKernelOpsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](Operation *op) {
      llvm::StringRef reason = getMissingReason(op);
      if (reason.empty())
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' is not supported on AMD GPUs: " << reason;
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
