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
// - the ROCm runtime's mgpuMemGetDeviceMemRef1dFloat and ...1dInt32, which
//   programs call with a registered host memref, and which return the
//   memref at the device's address: the same descriptor, its pointers from
//   mgpuMemGetDevicePointerAt, on every backend.
//
// They take precedence over upstream's patterns; a form they do not take
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

/// The element type of the 1-D memrefs that the ROCm runtime's function
/// `name` takes and returns, if it is mgpuMemGetDeviceMemRef1d*.
Type getDeviceMemRefElementType(StringRef name, MLIRContext *context) {
  if (name == kDeviceMemRefFloat)
    return Float32Type::get(context);
  if (name == kDeviceMemRefInt32)
    return IntegerType::get(context, 32);
  return nullptr;
}

///   %d = func.call @mgpuMemGetDeviceMemRef1dFloat(%m)
///       : (memref<?xf32>) -> memref<?xf32>
///   -> %m's descriptor, both pointers
///      llvm.call @mgpuMemGetDevicePointerAt(%aligned, %loc)
class DeviceMemRefCallLowering : public ConvertOpToLLVMPattern<func::CallOp> {
public:
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = getDeviceMemRefElementType(op.getCallee(), getContext());
    if (!element)
      return rewriter.notifyMatchFailure(op, "not mgpuMemGetDeviceMemRef1d*");
    auto isMemRef1d = [&](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return memref && memref.getRank() == 1 &&
             memref.getElementType() == element && !memref.getMemorySpace();
    };
    if (op.getNumOperands() != 1 || op.getNumResults() != 1 ||
        !isMemRef1d(op.getOperand(0).getType()) ||
        !isMemRef1d(op.getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "not the runtime's types");
    Type resultType = typeConverter->convertType(op.getResult(0).getType());
    if (!resultType)
      return failure();

    Location loc = op.getLoc();
    MemRefDescriptor source(adaptor.getOperands()[0]);
    Value where = getConstantString(rewriter, loc,
                                    getRuntimeLocation(op.getCallee(), loc));
    FailureOr<LLVM::CallOp> call =
        createMgpuCall(rewriter, loc, MgpuFunction::mgpuMemGetDevicePointerAt,
                       {source.alignedPtr(rewriter, loc), where});
    if (failed(call))
      return failure();
    Value device = call->getResult();
    auto result = MemRefDescriptor::poison(rewriter, loc, resultType);
    result.setAllocatedPtr(rewriter, loc, device);
    result.setAlignedPtr(rewriter, loc, device);
    result.setOffset(rewriter, loc, source.offset(rewriter, loc));
    result.setSize(rewriter, loc, 0, source.size(rewriter, loc, 0));
    result.setStride(rewriter, loc, 0, source.stride(rewriter, loc, 0));
    rewriter.replaceOp(op, Value(result));
    return success();
  }
};

} // namespace

void populateLocatedHostCallPatterns(const LLVMTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<DeallocToMgpuCall, DeviceMemRefCallLowering,
               RuntimeCallToLocatedForm>(converter, kLocatedCallBenefit);
}

} // namespace gpu_runner
