//===- LowerVectorOps.cpp - Vector ops to ones that convert to LLVM -------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace gpu_runner {
#define GEN_PASS_DEF_LOWERVECTORMASKS
#define GEN_PASS_DEF_LOWERVECTOROPS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;
using namespace mlir::vector;

namespace gpu_runner {
namespace {

class LowerVectorOpsPass : public impl::LowerVectorOpsBase<LowerVectorOpsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateVectorToVectorCanonicalizationPatterns(patterns);
    populateVectorContractLoweringPatterns(
        patterns, VectorContractLowering::OuterProduct);
    populateVectorOuterProductLoweringPatterns(patterns);
    populateVectorMultiReductionLoweringPatterns(
        patterns, VectorMultiReductionLowering::InnerReduction);
    populateVectorTransposeLoweringPatterns(patterns,
                                            VectorTransposeLowering::EltWise);
    populateVectorShapeCastLoweringPatterns(patterns);
    populateVectorBroadcastLoweringPatterns(patterns);
    populateVectorMaskOpLoweringPatterns(patterns);
    populateVectorMaskMaterializationPatterns(
        patterns,
        /*force32BitVectorIndices=*/false);
    populateVectorInterleaveLoweringPatterns(patterns);
    populateVectorBitCastLoweringPatterns(patterns);
    populateVectorInsertExtractStridedSliceTransforms(patterns);
    populateVectorStepLoweringPatterns(patterns);
    populateVectorGatherLoweringPatterns(patterns);
    populateVectorScanLoweringPatterns(patterns);
    populateVectorRankReducingFMAPattern(patterns);
    // Transfers of higher rank went to loops in convert-vector-to-scf.
    populateVectorTransferLoweringPatterns(patterns, /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

class LowerVectorMasksPass
    : public impl::LowerVectorMasksBase<LowerVectorMasksPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    MaskOp::getCanonicalizationPatterns(patterns, &getContext());
    // Each op once, and nothing else touched: the greedy driver would also
    // fold and erase the program's dead ops, before the checks that report
    // what they would do (a dead out-of-bounds load under memcheck).
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace gpu_runner
