//===- LocatedHostCalls.cpp - Host calls whose errors name their op -------===//
//
// Two kinds of host code reach the runtime without an op of the gpu
// dialect, so upstream's lowering would give their errors no location:
//
// - memref.dealloc, which upstream lowers to a call of free: device memory,
//   a double free or a damaged block is then reported by "free" alone. Here
//   it calls mgpuMemrefDeallocAt with the allocated pointer and the op's
//   location string, and the program heap reports at the op:
//
//     file.mlir:3:3: error: memref.dealloc: 0x... is device memory (...)
//
// - the timers, which programs call as external functions (mgpuTimerStop,
//   ...): each call becomes a call of the function's `At` form with the
//   call's location, reported as "file.mlir:9:5: error: mgpuTimerStop: ...".
//
// Both take precedence over upstream's patterns; a form they do not take
// (an unranked memref, a memory space, a call whose lowered types are not
// the runtime's, which gpu-runner-check-lowered reports) is left to those.
//
//===----------------------------------------------------------------------===//

#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// Above upstream's patterns for the same ops, which are the fallback.
constexpr unsigned kLocatedCallBenefit = 2;

///   memref.dealloc %m
///   -> llvm.call @mgpuMemrefDeallocAt(%allocated, %loc)
class DeallocToMgpuCall : public ConvertOpToLLVMPattern<memref::DeallocOp> {
public:
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(memref::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getMemref().getType()))
      return rewriter.notifyMatchFailure(op, "an unranked memref");
    Location loc = op.getLoc();
    MemRefDescriptor memref(adaptor.getMemref());
    Value pointer = memref.allocatedPtr(rewriter, loc);
    if (cast<LLVM::LLVMPointerType>(pointer.getType()).getAddressSpace() != 0)
      return rewriter.notifyMatchFailure(op, "a memref in a memory space");
    Value where = getConstantString(rewriter, loc, getRuntimeLocation(op));
    if (failed(createMgpuCall(rewriter, loc, MgpuFunction::mgpuMemrefDeallocAt,
                              {pointer, where})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The `At` form of the runtime function a program calls by `name`.
std::optional<MgpuFunction> getLocatedForm(StringRef name) {
  return llvm::StringSwitch<std::optional<MgpuFunction>>(name)
      .Case("mgpuTimerCreate", MgpuFunction::mgpuTimerCreateAt)
      .Case("mgpuTimerDestroy", MgpuFunction::mgpuTimerDestroyAt)
      .Case("mgpuTimerStart", MgpuFunction::mgpuTimerStartAt)
      .Case("mgpuTimerStop", MgpuFunction::mgpuTimerStopAt)
      .Case("mgpuTimerElapsedNs", MgpuFunction::mgpuTimerElapsedNsAt)
      .Default(std::nullopt);
}

///   func.call @mgpuTimerStop(%timer, %token)
///   -> llvm.call @mgpuTimerStopAt(%timer, %stream, %loc)
class RuntimeCallToLocatedForm : public ConvertOpToLLVMPattern<func::CallOp> {
public:
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<MgpuFunction> located = getLocatedForm(op.getCallee());
    if (!located)
      return rewriter.notifyMatchFailure(op, "not a runtime function");
    LLVM::LLVMFunctionType type = getMgpuFunctionType(getContext(), *located);
    ValueRange operands = adaptor.getOperands();
    // The parameters but the location must be the operands' lowered types.
    if (TypeRange(operands) != type.getParams().drop_back())
      return rewriter.notifyMatchFailure(op, "the runtime's types differ");
    SmallVector<Type> results;
    SmallVector<Type> runtimeResults;
    if (!isa<LLVM::LLVMVoidType>(type.getReturnType()))
      runtimeResults.push_back(type.getReturnType());
    if (failed(typeConverter->convertTypes(op.getResultTypes(), results)) ||
        results != runtimeResults)
      return rewriter.notifyMatchFailure(op, "the runtime's types differ");

    Location loc = op.getLoc();
    SmallVector<Value> args(operands);
    args.push_back(getConstantString(rewriter, loc,
                                     getRuntimeLocation(op.getCallee(), loc)));
    FailureOr<LLVM::CallOp> call =
        createMgpuCall(rewriter, loc, *located, args);
    if (failed(call))
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

} // namespace

void populateLocatedHostCallPatterns(const LLVMTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<DeallocToMgpuCall, RuntimeCallToLocatedForm>(
      converter, kLocatedCallBenefit);
}

} // namespace gpu_runner
