//===- LowerGpuReductions.cpp - Reductions to shuffles and barriers -------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "wrappers/HostKernelAbi.h"

namespace gpu_runner {
#define GEN_PASS_DEF_LOWERGPUREDUCTIONS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// gpu.subgroup_size as a constant.
struct SubgroupSizeToConstant : OpRewritePattern<gpu::SubgroupSizeOp> {
  SubgroupSizeToConstant(MLIRContext *context, int64_t size)
      : OpRewritePattern(context), size(size) {}
  LogicalResult matchAndRewrite(gpu::SubgroupSizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, size);
    return success();
  }
  int64_t size;
};

/// gpu.num_subgroups: the block's threads in subgroups, the last one
/// possibly partial.
struct NumSubgroupsFromBlockSize : OpRewritePattern<gpu::NumSubgroupsOp> {
  NumSubgroupsFromBlockSize(MLIRContext *context, int64_t size)
      : OpRewritePattern(context), size(size) {}
  LogicalResult matchAndRewrite(gpu::NumSubgroupsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value threads = gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
    for (gpu::Dimension dimension : {gpu::Dimension::y, gpu::Dimension::z})
      threads = arith::MulIOp::create(
          rewriter, loc, threads,
          gpu::BlockDimOp::create(rewriter, loc, dimension));
    Value subgroup = arith::ConstantIndexOp::create(rewriter, loc, size);
    rewriter.replaceOpWithNewOp<arith::CeilDivUIOp>(op, threads, subgroup);
    return success();
  }
  int64_t size;
};

class LowerGpuReductionsPass
    : public impl::LowerGpuReductionsBase<LowerGpuReductionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuAllReducePatterns(patterns);
    populateGpuGlobalIdPatterns(patterns);
    if (lowerSubgroupId) {
      populateGpuSubgroupIdPatterns(patterns);
      // What that rewrite leaves: the subgroup size.
      int64_t size = subgroupSize;
      patterns.add<SubgroupSizeToConstant>(&getContext(), size);
      // The block's threads in subgroups, the last one possibly partial.
      patterns.add<NumSubgroupsFromBlockSize>(&getContext(), size);
    }
    populateGpuBreakDownSubgroupReducePatterns(patterns, shuffleBitwidth);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, subgroupSize,
                                                    shuffleBitwidth);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, subgroupSize, shuffleBitwidth);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
