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
      // What that rewrite leaves: the subgroup size, 32 on NVIDIA GPUs as
      // on the host.
      patterns.add(+[](gpu::SubgroupSizeOp op, PatternRewriter &rewriter) {
        rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op,
                                                            kHostSubgroupSize);
        return success();
      });
      // The block's threads in subgroups, the last one possibly partial.
      patterns.add(+[](gpu::NumSubgroupsOp op, PatternRewriter &rewriter) {
        Location loc = op.getLoc();
        Value threads =
            gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
        for (gpu::Dimension dimension : {gpu::Dimension::y, gpu::Dimension::z})
          threads = arith::MulIOp::create(
              rewriter, loc, threads,
              gpu::BlockDimOp::create(rewriter, loc, dimension));
        Value size =
            arith::ConstantIndexOp::create(rewriter, loc, kHostSubgroupSize);
        rewriter.replaceOpWithNewOp<arith::CeilDivUIOp>(op, threads, size);
        return success();
      });
    }
    // Shuffles of up to 64 bits are native to the host runtime.
    populateGpuBreakDownSubgroupReducePatterns(patterns,
                                               /*maxShuffleBitwidth=*/64);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, kHostSubgroupSize,
                                                    /*shuffleBitwidth=*/64);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, kHostSubgroupSize, /*shuffleBitwidth=*/64);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
