//===- RejectKernels.cpp - Kernels on a backend that cannot run them ------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpu_runner {
#define GEN_PASS_DEF_REJECTKERNELS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

class RejectKernelsPass : public impl::RejectKernelsBase<RejectKernelsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    bool found = false;
    getOperation().walk([&](Operation *op) {
      if (!isa<gpu::LaunchOp, gpu::LaunchFuncOp>(op))
        return;
      op->emitError() << "'" << op->getName()
                      << "': running kernels on the " << backend
                      << " backend is not supported yet";
      found = true;
    });
    if (found)
      return signalPassFailure();

    // Device code nothing launches has no effect on the program.
    SmallVector<Operation *> deviceCode;
    for (Operation &op : getOperation().getBody()->getOperations())
      if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
        deviceCode.push_back(&op);
    for (Operation *op : deviceCode)
      op->erase();
  }
};

} // namespace
} // namespace gpu_runner
