//===- AssertToMgpuCall.cpp - The host code's cf.assert
//--------------------===//
//
// Upstream lowers cf.assert to a print of its message on stdout and a call
// of abort(), which the runner can only report as "the program aborted".
// Here a failed assertion calls mgpuAssertFailedAt with its message and its
// op's location string, and the runtime reports it as every other run-time
// error: at the op, on stderr, exit status 1.
//
//===----------------------------------------------------------------------===//

#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace gpu_runner {
namespace {

///   ^before: ... llvm.cond_br %condition, ^after, ^fail
///   ^fail: llvm.call @mgpuAssertFailedAt(%message, %loc) ; llvm.unreachable
///   ^after:  the ops after the assertion
class AssertToMgpuCall : public ConvertOpToLLVMPattern<cf::AssertOp> {
public:
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(cf::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, rewriter.getInsertionPoint());
    Block *failBlock = rewriter.createBlock(after);

    rewriter.setInsertionPointToStart(failBlock);
    Value message = getConstantString(rewriter, loc, op.getMsg());
    Value where = getConstantString(rewriter, loc, getRuntimeLocation(op));
    if (failed(createMgpuCall(rewriter, loc, MgpuFunction::mgpuAssertFailedAt,
                              {message, where})))
      return failure();
    LLVM::UnreachableOp::create(rewriter, loc);

    rewriter.setInsertionPointToEnd(before);
    rewriter.replaceOpWithNewOp<LLVM::CondBrOp>(op, adaptor.getArg(), after,
                                                failBlock);
    return success();
  }
};

} // namespace

void populateAssertToMgpuCallPatterns(const LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<AssertToMgpuCall>(converter);
}

} // namespace gpu_runner
