//===- ExpandArith.cpp - Arith ops LLVM has no instruction for -----------===//
//
// Upstream's arith-expand, but for arith.maximumf and arith.minimumf. It
// makes those a compare and a select, which gets the sign of zero wrong:
// maximumf(+0, -0) gives -0. The arith dialect defines them as IEEE
// 754-2019's maximum and minimum (-0 below +0), which is what the LLVM
// intrinsics llvm.maximum and llvm.minimum are, and the conversion to the
// LLVM dialect makes them those.
//
//===----------------------------------------------------------------------===//

#include "lowering/ExpandArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace gpu_runner {
namespace {

class ExpandArithPass : public PassWrapper<ExpandArithPass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandArithPass)

  StringRef getArgument() const final { return "gpu-runner-expand-arith"; }
  StringRef getDescription() const final {
    return "Expand the arith ops that have no LLVM lowering, but maximumf "
           "and minimumf";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    arith::populateArithExpandOpsPatterns(patterns);
    OperationName maximum(arith::MaximumFOp::getOperationName(), context);
    OperationName minimum(arith::MinimumFOp::getOperationName(), context);
    llvm::erase_if(patterns.getNativePatterns(),
                   [&](const std::unique_ptr<RewritePattern> &pattern) {
                     std::optional<OperationName> root = pattern->getRootKind();
                     return root == maximum || root == minimum;
                   });

    // As upstream's pass: the ops its patterns expand must go.
    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, vector::VectorDialect>();
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        target.addIllegalOp(*root);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> createExpandArith() {
  return std::make_unique<ExpandArithPass>();
}

void registerExpandArith() { PassRegistration<ExpandArithPass>(); }

} // namespace gpu_runner
