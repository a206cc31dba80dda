//===- SubgroupBroadcastToNVVM.cpp - Broadcasts among a warp's active lanes
//===//
//
// gpu.subgroup_broadcast for NVIDIA GPUs, which upstream's NVVM lowering
// does not lower: a shfl.sync among the lanes that __activemask() names,
// from the lane given or from the lowest of them (__ffs). The op may stand
// in divergent code, and on Volta and later a shfl.sync waits for every
// lane of its member mask that has not exited, so the mask of the whole
// warp that gpu.shuffle's lowering uses would hang there.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/host/ScalarBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gpu_runner {
#define GEN_PASS_DEF_SUBGROUPBROADCASTTONVVM
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

struct BroadcastToShflSync : OpRewritePattern<gpu::SubgroupBroadcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::SubgroupBroadcastOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value mask =
        LLVM::CallIntrinsicOp::create(
            rewriter, loc, i32, rewriter.getStringAttr("llvm.nvvm.activemask"),
            ValueRange())
            .getResult(0);
    Value source = op.getLane();
    if (op.getBroadcastType() == gpu::BroadcastType::first_active_lane)
      source = LLVM::CountTrailingZerosOp::create(rewriter, loc, i32, mask,
                                                  /*is_zero_poison=*/true);
    // The whole warp is one segment: lanes 0 to 31.
    Value clamp = arith::ConstantIntOp::create(rewriter, loc, 31, 32);
    auto shuffleWord = [&](Value word) -> Value {
      return NVVM::ShflOp::create(rewriter, loc, i32, mask, word, source, clamp,
                                  NVVM::ShflKind::idx, UnitAttr());
    };

    // shfl.sync moves 32 bits: a scalar of up to 64 bits (what the checks
    // of gpu-runner-lower-gpu-reductions let through) as one or two words.
    auto broadcastScalar = [&](Value value) -> Value {
      Value asBits = scalarToBits(rewriter, loc, value);
      Type bitsType = asBits.getType();
      unsigned bits = bitsType.getIntOrFloatBitWidth();
      Value result;
      if (bits <= 32) {
        if (bits < 32)
          asBits = arith::ExtUIOp::create(rewriter, loc, i32, asBits);
        result = shuffleWord(asBits);
        if (bits < 32)
          result = arith::TruncIOp::create(rewriter, loc, bitsType, result);
      } else {
        Type i64 = rewriter.getI64Type();
        Value wide = asBits;
        if (bits < 64)
          wide = arith::ExtUIOp::create(rewriter, loc, i64, asBits);
        Value c32 = arith::ConstantIntOp::create(rewriter, loc, 32, 64);
        Value low = arith::TruncIOp::create(rewriter, loc, i32, wide);
        Value high = arith::TruncIOp::create(
            rewriter, loc, i32,
            arith::ShRUIOp::create(rewriter, loc, wide, c32));
        Value lowResult =
            arith::ExtUIOp::create(rewriter, loc, i64, shuffleWord(low));
        Value highResult =
            arith::ExtUIOp::create(rewriter, loc, i64, shuffleWord(high));
        result = arith::OrIOp::create(
            rewriter, loc, lowResult,
            arith::ShLIOp::create(rewriter, loc, highResult, c32));
        if (bits < 64)
          result = arith::TruncIOp::create(rewriter, loc, bitsType, result);
      }
      return scalarFromBits(rewriter, loc, result, value.getType());
    };

    Value value = op.getSrc();
    auto vectorType = dyn_cast<VectorType>(value.getType());
    if (vectorType && (vectorType.getRank() != 1 || vectorType.isScalable()))
      return rewriter.notifyMatchFailure(op, "not a vector of rank 1");
    if (!vectorType) {
      rewriter.replaceOp(op, broadcastScalar(value));
      return success();
    }
    Value result = value;
    for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i) {
      Value element = vector::ExtractOp::create(rewriter, loc, value, i);
      result = vector::InsertOp::create(rewriter, loc, broadcastScalar(element),
                                        result, i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

class SubgroupBroadcastToNVVMPass
    : public impl::SubgroupBroadcastToNVVMBase<SubgroupBroadcastToNVVMPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<BroadcastToShflSync>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
