//===- RefuseTargetOps.cpp - The kernel ops a GPU target cannot compile ---===//
//
// See the description of gpu-runner-refuse-target-ops in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/SmallFloats.h"
#include "lowering/checks/VendorOps.h"
#include "lowering/host/HostMma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

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

/// The first type of `op`'s operands and results (or their element type)
/// that `isRefused` holds for, if `op` computes with it: arithmetic, math,
/// or a conversion from or to it. Moving the bits (a constant, a select, a
/// bitcast) needs no support for the type.
/// - f128: neither GPU has 128-bit floating point, so their code
///   generators would call library functions (__addtf3 and the like) that
///   no device library defines, and fail with no location.
/// - The float types LLVM has no type for (f8, f6, f4, tf32): host code
///   computes on them through f32 and the runtime's conversions
///   (EmulateSmallFloats.cpp), which a kernel on a GPU cannot call.
FloatType getComputedFloat(Operation *op,
                           llvm::function_ref<bool(Type)> isRefused) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::ConstantOp, arith::SelectOp, arith::BitcastOp>(op))
    return nullptr;
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type type : types)
      if (isRefused(type))
        return cast<FloatType>(getElementTypeOrSelf(type));
  return nullptr;
}

class RefuseTargetOpsPass
    : public impl::RefuseTargetOpsBase<RefuseTargetOpsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (failed(
            refuseVendorOps(getOperation(), nvvm ? VendorOpPlace::NvvmKernel
                                                 : VendorOpPlace::RocdlKernel)))
      return signalPassFailure();
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
      auto isF128 = [](Type type) {
        return getElementTypeOrSelf(type).isF128();
      };
      if (getComputedFloat(op, isF128)) {
        op->emitError() << "'" << op->getName() << "' on f128 cannot be "
                        << "compiled for " << (nvvm ? "NVIDIA" : "AMD")
                        << " GPUs: they have no 128-bit floating point, and "
                           "their device libraries no functions for it; "
                           "compute in f64, or run the program with "
                           "gpu-runner-host";
        return WalkResult::interrupt();
      }
      if (FloatType small = getComputedFloat(op, isSmallFloat)) {
        op->emitError() << "'" << op->getName() << "' on " << small
                        << " cannot be compiled for "
                        << (nvvm ? "NVIDIA" : "AMD")
                        << " GPUs by gpu-runner yet: it computes on the float "
                           "types LLVM has no type for through conversions "
                           "that run in host code only; convert to f32 in "
                           "host code, or run the program with "
                           "gpu-runner-host";
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
