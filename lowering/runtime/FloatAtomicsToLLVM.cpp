//===- FloatAtomicsToLLVM.cpp - memref.generic_atomic_rmw on floats -------===//
//
// Upstream lowers memref.generic_atomic_rmw to a cmpxchg loop on the element
// type itself, which LLVM only accepts for integers and pointers: on floats
// the result does not verify. This pattern runs the same loop on the
// float's bits.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// The loop, with the element as an integer of its width:
///
///   init:  %bits = llvm.load %ptr ; llvm.br loop(%bits)
///   loop(%expected):
///          <body on bitcast(%expected)> -> %next
///          %pair = llvm.cmpxchg %ptr, %expected, bitcast(%next)
///          llvm.cond_br %pair[1], end, loop(%pair[0])
///   end:   the op's result is the value it replaced, as upstream's is.
class FloatGenericAtomicRMWLowering
    : public ConvertOpToLLVMPattern<memref::GenericAtomicRMWOp> {
public:
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(memref::GenericAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto floatType = dyn_cast<FloatType>(op.getResult().getType());
    if (!floatType)
      return rewriter.notifyMatchFailure(op, "upstream handles integers");
    Location loc = op.getLoc();
    Type bitsType = rewriter.getIntegerType(floatType.getWidth());

    Block *initBlock = rewriter.getInsertionBlock();
    Block *endBlock =
        rewriter.splitBlock(initBlock, std::next(op->getIterator()));
    Block *loopBlock = rewriter.createBlock(endBlock, {bitsType}, {loc});

    rewriter.setInsertionPointToEnd(initBlock);
    Value pointer =
        getStridedElementPtr(rewriter, loc, op.getMemref().getType(),
                             adaptor.getMemref(), adaptor.getIndices());
    Value initial = LLVM::LoadOp::create(rewriter, loc, bitsType, pointer);
    LLVM::BrOp::create(rewriter, loc, ValueRange{initial}, loopBlock);

    rewriter.setInsertionPointToStart(loopBlock);
    Value expected = loopBlock->getArgument(0);
    IRMapping mapping;
    mapping.map(op.getCurrentValue(),
                LLVM::BitcastOp::create(rewriter, loc, floatType, expected)
                    .getResult());
    Block &body = op.getAtomicBody().front();
    for (Operation &nested : body.without_terminator())
      rewriter.clone(nested, mapping);
    Value next = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
    Value nextBits = LLVM::BitcastOp::create(rewriter, loc, bitsType, next);
    auto exchange = LLVM::AtomicCmpXchgOp::create(
        rewriter, loc, pointer, expected, nextBits,
        LLVM::AtomicOrdering::acq_rel, LLVM::AtomicOrdering::monotonic);
    Value loaded = LLVM::ExtractValueOp::create(rewriter, loc, exchange, 0);
    Value stored = LLVM::ExtractValueOp::create(rewriter, loc, exchange, 1);
    Value result = LLVM::BitcastOp::create(rewriter, loc, floatType, loaded);
    LLVM::CondBrOp::create(rewriter, loc, stored, endBlock, ValueRange(),
                           loopBlock, ValueRange{loaded});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateFloatAtomicsToLLVMPatterns(const LLVMTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<FloatGenericAtomicRMWLowering>(converter, /*benefit=*/2);
}

} // namespace gpu_runner

namespace gpu_runner {
#define GEN_PASS_DEF_LOWERFLOATATOMICS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

namespace gpu_runner {
namespace {

class LowerFloatAtomicsPass
    : public impl::LowerFloatAtomicsBase<LowerFloatAtomicsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    addGpuTypeConversions(converter);
    RewritePatternSet patterns(context);
    populateFloatAtomicsToLLVMPatterns(converter, patterns);
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<memref::GenericAtomicRMWOp>(
        [](memref::GenericAtomicRMWOp op) {
          return !isa<FloatType>(op.getResult().getType());
        });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
