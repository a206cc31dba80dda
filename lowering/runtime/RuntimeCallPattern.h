//===- RuntimeCallPattern.h - The base of the runtime op patterns ---------===//
//
// What the patterns of the gpu runtime ops share (GpuRuntimeToLLVM.cpp, and
// the launches in LaunchFuncToLLVM.cpp): emitting ABI calls that carry the
// op's location, finding the stream an op runs on, and the byte counts and
// descriptors the ABI takes.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_RUNTIME_RUNTIMECALLPATTERN_H
#define GPU_RUNNER_LOWERING_RUNTIME_RUNTIMECALLPATTERN_H

#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace gpu_runner {

/// Base of every pattern here: emitting ABI calls that carry the op's
/// location, and finding the stream an op runs on.
template <typename OpTy>
class RuntimeCallPattern : public mlir::ConvertOpToLLVMPattern<OpTy> {
public:
  using mlir::ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;

protected:
  /// Emits a call of `fn`; the op's location string is appended for the
  /// functions that take one (those ending in `At`).
  mlir::FailureOr<mlir::Value> call(mlir::ConversionPatternRewriter &rewriter,
                                    mlir::Operation *op, MgpuFunction fn,
                                    llvm::SmallVector<mlir::Value> args) const {
    mlir::Location loc = op->getLoc();
    if (getMgpuFunctionName(fn).ends_with("At"))
      args.push_back(getConstantString(rewriter, loc, getRuntimeLocation(op)));
    mlir::FailureOr<mlir::LLVM::CallOp> callOp =
        createMgpuCall(rewriter, loc, fn, args);
    if (mlir::failed(callOp))
      return mlir::failure();
    return callOp->getNumResults() ? callOp->getResult() : mlir::Value();
  }

  mlir::Value nullPointer(mlir::ConversionPatternRewriter &rewriter,
                          mlir::Location loc) const {
    return mlir::LLVM::ZeroOp::create(rewriter, loc, this->getPtrType());
  }

  mlir::Value constantI64(mlir::ConversionPatternRewriter &rewriter,
                          mlir::Location loc, int64_t value) const {
    return mlir::LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                          rewriter.getI64IntegerAttr(value));
  }

  /// The stream `op` runs on: null for a synchronous op (after synchronizing
  /// the streams of its dependencies, if it has any), a new stream for an
  /// async op without dependencies, else the stream the runtime gives for
  /// the first dependency, with the others joined into it.
  mlir::FailureOr<mlir::Value>
  getStream(mlir::ConversionPatternRewriter &rewriter,
            mlir::gpu::AsyncOpInterface op,
            mlir::ValueRange dependencies) const {
    mlir::Location loc = op->getLoc();
    // The same stream may be named by several tokens; one join or
    // synchronization is enough.
    llvm::SetVector<mlir::Value> streams(dependencies.begin(),
                                         dependencies.end());
    if (!op.getAsyncToken()) {
      for (mlir::Value stream : streams)
        if (mlir::failed(call(rewriter, op,
                              MgpuFunction::mgpuStreamSynchronizeAt, {stream})))
          return mlir::failure();
      return nullPointer(rewriter, loc);
    }
    if (streams.empty())
      return call(rewriter, op, MgpuFunction::mgpuStreamCreateAt, {});
    // Even a token a gpu op made just before may have been released since,
    // at run time, by a gpu.wait on it or on a token with the same stream.
    mlir::FailureOr<mlir::Value> fromToken = call(
        rewriter, op, MgpuFunction::mgpuStreamFromTokenAt, {streams.front()});
    if (mlir::failed(fromToken))
      return mlir::failure();
    mlir::Value stream = *fromToken;
    for (mlir::Value dependency : streams.getArrayRef().drop_front())
      if (mlir::failed(call(rewriter, op, MgpuFunction::mgpuStreamJoinAt,
                            {stream, dependency})))
        return mlir::failure();
    return stream;
  }

  /// Replaces `op` by `values` followed by its token, if it has one.
  void replaceWithStream(mlir::ConversionPatternRewriter &rewriter, OpTy op,
                         llvm::SmallVector<mlir::Value> values,
                         mlir::Value stream) const {
    if (op.getAsyncToken())
      values.push_back(stream);
    rewriter.replaceOp(op, values);
  }

  /// A pointer in address space 0, as the ABI takes them.
  mlir::Value toGenericPointer(mlir::ConversionPatternRewriter &rewriter,
                               mlir::Location loc, mlir::Value pointer) const {
    auto type = llvm::cast<mlir::LLVM::LLVMPointerType>(pointer.getType());
    if (type.getAddressSpace() == 0)
      return pointer;
    return mlir::LLVM::AddrSpaceCastOp::create(rewriter, loc,
                                               this->getPtrType(), pointer);
  }

  /// The address of the first element of a memref: aligned + offset.
  mlir::Value getDataPointer(mlir::ConversionPatternRewriter &rewriter,
                             mlir::Location loc, mlir::MemRefType type,
                             mlir::Value descriptor) const {
    mlir::MemRefDescriptor memref(descriptor);
    mlir::Value pointer = memref.alignedPtr(rewriter, loc);
    // A static zero offset needs no address arithmetic.
    if (type.getStridesAndOffset().second != 0) {
      mlir::Type elementType =
          this->getTypeConverter()->convertType(type.getElementType());
      pointer = mlir::LLVM::GEPOp::create(rewriter, loc, pointer.getType(),
                                          elementType, pointer,
                                          memref.offset(rewriter, loc));
    }
    return toGenericPointer(rewriter, loc, pointer);
  }

  /// Size in bytes of `count` elements of `elementType`, computed from the
  /// data layout the way upstream's lowering does (a GEP from null).
  mlir::Value getBytes(mlir::ConversionPatternRewriter &rewriter,
                       mlir::Location loc, mlir::Type elementType,
                       int64_t count) const {
    mlir::Value null = nullPointer(rewriter, loc);
    // A GEP's constant index is 32-bit; larger counts are a value.
    mlir::LLVM::GEPArg index = static_cast<int32_t>(count);
    if (count != static_cast<int32_t>(count))
      index = constantI64(rewriter, loc, count);
    mlir::Value end = mlir::LLVM::GEPOp::create(
        rewriter, loc, this->getPtrType(),
        this->getTypeConverter()->convertType(elementType), null,
        llvm::ArrayRef<mlir::LLVM::GEPArg>{index});
    return mlir::LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                          end);
  }

  mlir::Value getElementBytes(mlir::ConversionPatternRewriter &rewriter,
                              mlir::Location loc,
                              mlir::Type elementType) const {
    return getBytes(rewriter, loc, elementType, 1);
  }

  /// Stores a ranked memref descriptor in stack memory and returns its
  /// address, the form in which the ABI takes descriptors.
  mlir::Value spillDescriptor(mlir::ConversionPatternRewriter &rewriter,
                              mlir::Location loc,
                              mlir::Value descriptor) const {
    mlir::Value one = constantI64(rewriter, loc, 1);
    mlir::Value slot = mlir::LLVM::AllocaOp::create(
        rewriter, loc, this->getPtrType(), descriptor.getType(), one);
    mlir::LLVM::StoreOp::create(rewriter, loc, descriptor, slot);
    return slot;
  }

  /// Runs `emit` between a stack save and restore, so that descriptors
  /// spilled inside a loop do not grow the stack.
  template <typename Fn>
  mlir::LogicalResult withStackFrame(mlir::ConversionPatternRewriter &rewriter,
                                     mlir::Location loc, Fn emit) const {
    mlir::Value saved =
        mlir::LLVM::StackSaveOp::create(rewriter, loc, this->getPtrType());
    if (mlir::failed(emit()))
      return mlir::failure();
    mlir::LLVM::StackRestoreOp::create(rewriter, loc, saved);
    return mlir::success();
  }
};

/// Why the launch `op` cannot be lowered, or "": its kernel must be
/// compiled for the backend (LaunchFuncToLLVM.cpp).
std::string checkLaunch(mlir::gpu::LaunchFuncOp op);

/// Adds the patterns of gpu.launch_func: of a kernel compiled for the host,
/// and of one in a gpu.binary.
void populateLaunchFuncToLLVMPatterns(const mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_RUNTIME_RUNTIMECALLPATTERN_H
