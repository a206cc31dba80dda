//===- ShuffleUpToNVVM.cpp - gpu.shuffle up as shfl.sync.up ---------------===//
//
// Upstream's NVVM lowering gives `shfl.sync.up` the operand c = 32 - width.
// By the PTX ISA's pseudo-code, c[4:0] is the clamp and c[12:8] the segment
// mask, and an up shuffle is valid where lane - offset >= (lane & segmask) |
// (clamp & ~segmask): with a clamp of 32 - width no lane below the width
// ever is, so for widths below 32 every lane keeps its own value. Here c is
// 0 (clamp 0, one segment): lane k is valid when k - offset >= 0, what the
// dialect says, for every width. CUDA's __shfl_up_sync passes
// (32 - width) << 8, segments of `width` lanes, which gives the same for the
// powers of two CUDA allows and wrong answers for other widths, which the
// dialect allows. The other modes' c (width - 1, no segments) gives the
// dialect's answers for the first `width` lanes, the only ones that take
// part, and stays upstream's.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/ShuffleUpToNVVM.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

namespace gpu_runner {
namespace {

struct ShuffleUpToShflSync : OpRewritePattern<gpu::ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getMode() != gpu::ShuffleMode::UP)
      return rewriter.notifyMatchFailure(op, "not an up shuffle");
    Type type = op.getValue().getType();
    // What shfl.sync moves; upstream's lowering refuses the rest alike.
    if (!type.isInteger(32) && !type.isF32())
      return rewriter.notifyMatchFailure(op, "not a 32-bit scalar");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value minusOne = LLVM::ConstantOp::create(rewriter, loc, i32, -1);
    Value thirtyTwo = LLVM::ConstantOp::create(rewriter, loc, i32, 32);
    Value unused =
        LLVM::SubOp::create(rewriter, loc, i32, thirtyTwo, op.getWidth());
    // The first `width` lanes: -1 >> (32 - width), as upstream's.
    Value members = LLVM::LShrOp::create(rewriter, loc, i32, minusOne, unused);
    // No segment mask (bits 12:8), clamp 0 (bits 4:0).
    Value clamp = LLVM::ConstantOp::create(rewriter, loc, i32, 0);

    bool validUsed = !op.getValid().use_empty();
    Type resultType = type;
    UnitAttr withValid;
    if (validUsed) {
      withValid = rewriter.getUnitAttr();
      resultType = LLVM::LLVMStructType::getLiteral(
          rewriter.getContext(), {type, rewriter.getI1Type()});
    }
    Value shuffle = NVVM::ShflOp::create(rewriter, loc, resultType, members,
                                         op.getValue(), op.getOffset(), clamp,
                                         NVVM::ShflKind::up, withValid);
    if (!validUsed) {
      // A stand-in for the flag nothing reads.
      Value unread =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), 0);
      rewriter.replaceOp(op, {shuffle, unread});
      return success();
    }
    Value value = LLVM::ExtractValueOp::create(rewriter, loc, shuffle, 0);
    Value valid = LLVM::ExtractValueOp::create(rewriter, loc, shuffle, 1);
    rewriter.replaceOp(op, {value, valid});
    return success();
  }
};

class ShuffleUpToNVVMPass
    : public PassWrapper<ShuffleUpToNVVMPass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ShuffleUpToNVVMPass)

  StringRef getArgument() const final {
    return "gpu-runner-shuffle-up-to-nvvm";
  }
  StringRef getDescription() const final {
    return "Lower gpu.shuffle up to shfl.sync with the operand the PTX ISA "
           "wants";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ShuffleUpToShflSync>(&getContext());
    // Once over each op, folding nothing else of the module.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

std::unique_ptr<Pass> createShuffleUpToNVVM() {
  return std::make_unique<ShuffleUpToNVVMPass>();
}

void registerShuffleUpToNVVM() { PassRegistration<ShuffleUpToNVVMPass>(); }

} // namespace gpu_runner
