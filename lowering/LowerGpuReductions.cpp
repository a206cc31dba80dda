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
