//===- GpuRuntimeToLLVM.cpp - gpu runtime ops to mgpu ABI calls -----------===//
//
// One pattern per gpu runtime op. An async token is lowered to the stream its
// op was enqueued on:
// - an async op without dependencies gets a new stream;
// - with dependencies it runs on the stream the runtime gives for the first
//   one (mgpuStreamFromTokenAt), after the others were joined into it
//   (mgpuStreamJoinAt, which releases them);
// - a synchronous op passes a null stream, which the runtime runs in order
//   with all work enqueued before it;
// - a synchronous gpu.wait synchronizes and releases its tokens' streams.
// A token stays a valid dependency after a gpu.wait or a join released its
// stream (the gpu dialect's tokens are values); only the runtime knows
// whether it was, so every first dependency goes through it: the token's
// stream while that takes work, else a fresh one that waits for what is
// left of the token's work.
//
// Each pattern refuses the forms it cannot lower with a reason written for
// the user, in a check function next to it; getUnsupportedFormReason runs
// the same checks before the conversion, so that the user reads the reason
// rather than "failed to legalize".
//
//===----------------------------------------------------------------------===//

#include "lowering/runtime/GpuRuntimeToLLVM.h"

#include "lowering/device/DeviceBinaries.h"
#include "lowering/runtime/MgpuCalls.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// Base of every pattern here: emitting ABI calls that carry the op's
/// location, and finding the stream an op runs on.
template <typename OpTy>
class RuntimeCallPattern : public ConvertOpToLLVMPattern<OpTy> {
public:
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;

protected:
  /// Emits a call of `fn`; the op's location string is appended for the
  /// functions that take one (those ending in `At`).
  FailureOr<Value> call(ConversionPatternRewriter &rewriter, Operation *op,
                        MgpuFunction fn, SmallVector<Value> args) const {
    Location loc = op->getLoc();
    if (getMgpuFunctionName(fn).ends_with("At"))
      args.push_back(getConstantString(rewriter, loc, getRuntimeLocation(op)));
    FailureOr<LLVM::CallOp> callOp = createMgpuCall(rewriter, loc, fn, args);
    if (failed(callOp))
      return failure();
    return callOp->getNumResults() ? callOp->getResult() : Value();
  }

  Value nullPointer(ConversionPatternRewriter &rewriter, Location loc) const {
    return LLVM::ZeroOp::create(rewriter, loc, this->getPtrType());
  }

  Value constantI64(ConversionPatternRewriter &rewriter, Location loc,
                    int64_t value) const {
    return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                    rewriter.getI64IntegerAttr(value));
  }

  /// The stream `op` runs on: null for a synchronous op (after synchronizing
  /// the streams of its dependencies, if it has any), a new stream for an
  /// async op without dependencies, else the stream the runtime gives for
  /// the first dependency, with the others joined into it.
  FailureOr<Value> getStream(ConversionPatternRewriter &rewriter,
                             gpu::AsyncOpInterface op,
                             ValueRange dependencies) const {
    Location loc = op->getLoc();
    // The same stream may be named by several tokens; one join or
    // synchronization is enough.
    llvm::SetVector<Value> streams(dependencies.begin(), dependencies.end());
    if (!op.getAsyncToken()) {
      for (Value stream : streams)
        if (failed(call(rewriter, op, MgpuFunction::mgpuStreamSynchronizeAt,
                        {stream})))
          return failure();
      return nullPointer(rewriter, loc);
    }
    if (streams.empty())
      return call(rewriter, op, MgpuFunction::mgpuStreamCreateAt, {});
    // Even a token a gpu op made just before may have been released since,
    // at run time, by a gpu.wait on it or on a token with the same stream.
    FailureOr<Value> fromToken = call(
        rewriter, op, MgpuFunction::mgpuStreamFromTokenAt, {streams.front()});
    if (failed(fromToken))
      return failure();
    Value stream = *fromToken;
    for (Value dependency : streams.getArrayRef().drop_front())
      if (failed(call(rewriter, op, MgpuFunction::mgpuStreamJoinAt,
                      {stream, dependency})))
        return failure();
    return stream;
  }

  /// Replaces `op` by `values` followed by its token, if it has one.
  void replaceWithStream(ConversionPatternRewriter &rewriter, OpTy op,
                         SmallVector<Value> values, Value stream) const {
    if (op.getAsyncToken())
      values.push_back(stream);
    rewriter.replaceOp(op, values);
  }

  /// A pointer in address space 0, as the ABI takes them.
  Value toGenericPointer(ConversionPatternRewriter &rewriter, Location loc,
                         Value pointer) const {
    auto type = cast<LLVM::LLVMPointerType>(pointer.getType());
    if (type.getAddressSpace() == 0)
      return pointer;
    return LLVM::AddrSpaceCastOp::create(rewriter, loc, this->getPtrType(),
                                         pointer);
  }

  /// The address of the first element of a memref: aligned + offset.
  Value getDataPointer(ConversionPatternRewriter &rewriter, Location loc,
                       MemRefType type, Value descriptor) const {
    MemRefDescriptor memref(descriptor);
    Value pointer = memref.alignedPtr(rewriter, loc);
    // A static zero offset needs no address arithmetic.
    if (type.getStridesAndOffset().second != 0) {
      Type elementType =
          this->getTypeConverter()->convertType(type.getElementType());
      pointer =
          LLVM::GEPOp::create(rewriter, loc, pointer.getType(), elementType,
                              pointer, memref.offset(rewriter, loc));
    }
    return toGenericPointer(rewriter, loc, pointer);
  }

  /// Size in bytes of `count` elements of `elementType`, computed from the
  /// data layout the way upstream's lowering does (a GEP from null).
  Value getBytes(ConversionPatternRewriter &rewriter, Location loc,
                 Type elementType, int64_t count) const {
    Value null = nullPointer(rewriter, loc);
    // A GEP's constant index is 32-bit; larger counts are a value.
    LLVM::GEPArg index = static_cast<int32_t>(count);
    if (count != static_cast<int32_t>(count))
      index = constantI64(rewriter, loc, count);
    Value end =
        LLVM::GEPOp::create(rewriter, loc, this->getPtrType(),
                            this->getTypeConverter()->convertType(elementType),
                            null, ArrayRef<LLVM::GEPArg>{index});
    return LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), end);
  }

  Value getElementBytes(ConversionPatternRewriter &rewriter, Location loc,
                        Type elementType) const {
    return getBytes(rewriter, loc, elementType, 1);
  }

  /// Stores a ranked memref descriptor in stack memory and returns its
  /// address, the form in which the ABI takes descriptors.
  Value spillDescriptor(ConversionPatternRewriter &rewriter, Location loc,
                        Value descriptor) const {
    Value one = constantI64(rewriter, loc, 1);
    Value slot = LLVM::AllocaOp::create(rewriter, loc, this->getPtrType(),
                                        descriptor.getType(), one);
    LLVM::StoreOp::create(rewriter, loc, descriptor, slot);
    return slot;
  }

  /// Runs `emit` between a stack save and restore, so that descriptors
  /// spilled inside a loop do not grow the stack.
  template <typename Fn>
  LogicalResult withStackFrame(ConversionPatternRewriter &rewriter,
                               Location loc, Fn emit) const {
    Value saved = LLVM::StackSaveOp::create(rewriter, loc, this->getPtrType());
    if (failed(emit()))
      return failure();
    LLVM::StackRestoreOp::create(rewriter, loc, saved);
    return success();
  }
};

/// Why a memref the runtime is handed as a descriptor cannot be: one whose
/// layout is not strided has no descriptor.
std::string checkStrided(Type type, StringRef role) {
  auto memref = cast<MemRefType>(type);
  if (memref.isStrided())
    return "";
  std::string reason;
  llvm::raw_string_ostream os(reason);
  os << "the " << role << " has the layout " << memref.getLayout()
     << ", which is not strided";
  return reason;
}

std::string checkMemcpy(gpu::MemcpyOp op) {
  std::string reason = checkStrided(op.getDst().getType(), "destination");
  return reason.empty() ? checkStrided(op.getSrc().getType(), "source")
                        : reason;
}

/// gpu.memcpy: one contiguous copy when both memrefs are statically known to
/// be contiguous with the same static shape, else a strided copy of the two
/// descriptors (which also checks dynamic shapes at run time).
class MemcpyOpLowering : public RuntimeCallPattern<gpu::MemcpyOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::MemcpyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = checkMemcpy(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    auto srcType = cast<MemRefType>(op.getSrc().getType());
    auto dstType = cast<MemRefType>(op.getDst().getType());
    Location loc = op.getLoc();

    FailureOr<Value> stream =
        getStream(rewriter, op, adaptor.getAsyncDependencies());
    if (failed(stream))
      return failure();

    if (memref::isStaticShapeAndContiguousRowMajor(srcType) &&
        memref::isStaticShapeAndContiguousRowMajor(dstType)) {
      Value bytes = getBytes(rewriter, loc, srcType.getElementType(),
                             srcType.getNumElements());
      Value src = getDataPointer(rewriter, loc, srcType, adaptor.getSrc());
      Value dst = getDataPointer(rewriter, loc, dstType, adaptor.getDst());
      if (failed(call(rewriter, op, MgpuFunction::mgpuMemcpyAt,
                      {dst, src, bytes, *stream})))
        return failure();
    } else {
      LogicalResult emitted = withStackFrame(rewriter, loc, [&] {
        Value rank = constantI64(rewriter, loc, srcType.getRank());
        Value dst = spillDescriptor(rewriter, loc, adaptor.getDst());
        Value src = spillDescriptor(rewriter, loc, adaptor.getSrc());
        Value elementBytes =
            getElementBytes(rewriter, loc, srcType.getElementType());
        return call(rewriter, op, MgpuFunction::mgpuMemcpyStridedAt,
                    {rank, dst, src, elementBytes, *stream});
      });
      if (failed(emitted))
        return failure();
    }
    replaceWithStream(rewriter, op, {}, *stream);
    return success();
  }
};

/// The element width gpu.memset supports for `type` (8, 16, 32 or 64 bits),
/// or nothing when it has another width.
std::optional<unsigned> getMemsetElementBits(Type type,
                                             unsigned indexBitwidth) {
  unsigned bits = 0;
  if (type.isIndex())
    bits = indexBitwidth;
  else if (type.isIntOrFloat())
    bits = type.getIntOrFloatBitWidth();
  if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
    return bits;
  return std::nullopt;
}

std::string checkMemset(gpu::MemsetOp op, unsigned indexBitwidth) {
  std::string reason = checkStrided(op.getDst().getType(), "destination");
  Type valueType = op.getValue().getType();
  if (reason.empty() && !getMemsetElementBits(valueType, indexBitwidth)) {
    llvm::raw_string_ostream os(reason);
    os << "elements of type '" << valueType
       << "' are not supported; gpu.memset takes 8, 16, 32 or 64-bit "
          "integers, floats or index";
  }
  return reason;
}

/// gpu.memset of 8, 16, 32 or 64-bit elements: a contiguous fill when the
/// memref is statically contiguous, else a strided fill of its descriptor.
class MemsetOpLowering : public RuntimeCallPattern<gpu::MemsetOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::MemsetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned indexBitwidth = getTypeConverter()->getIndexTypeBitwidth();
    if (std::string reason = checkMemset(op, indexBitwidth); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    auto dstType = cast<MemRefType>(op.getDst().getType());
    std::optional<unsigned> bits =
        getMemsetElementBits(op.getValue().getType(), indexBitwidth);
    Location loc = op.getLoc();

    FailureOr<Value> stream =
        getStream(rewriter, op, adaptor.getAsyncDependencies());
    if (failed(stream))
      return failure();

    // The runtime takes the element's bits as an unsigned integer.
    Type bitsType = rewriter.getIntegerType(*bits);
    Value value = adaptor.getValue();
    if (value.getType() != bitsType)
      value = LLVM::BitcastOp::create(rewriter, loc, bitsType, value);

    if (memref::isStaticShapeAndContiguousRowMajor(dstType)) {
      Value dst = getDataPointer(rewriter, loc, dstType, adaptor.getDst());
      Value count = constantI64(rewriter, loc, dstType.getNumElements());
      MgpuFunction fn = *bits == 8    ? MgpuFunction::mgpuMemset8At
                        : *bits == 16 ? MgpuFunction::mgpuMemset16At
                        : *bits == 32 ? MgpuFunction::mgpuMemset32At
                                      : MgpuFunction::mgpuMemset64At;
      if (failed(call(rewriter, op, fn, {dst, value, count, *stream})))
        return failure();
    } else {
      if (*bits < 64)
        value =
            LLVM::ZExtOp::create(rewriter, loc, rewriter.getI64Type(), value);
      LogicalResult emitted = withStackFrame(rewriter, loc, [&] {
        Value rank = constantI64(rewriter, loc, dstType.getRank());
        Value dst = spillDescriptor(rewriter, loc, adaptor.getDst());
        Value elementBytes = constantI64(rewriter, loc, *bits / 8);
        return call(rewriter, op, MgpuFunction::mgpuMemsetStridedAt,
                    {rank, dst, elementBytes, value, *stream});
      });
      if (failed(emitted))
        return failure();
    }
    replaceWithStream(rewriter, op, {}, *stream);
    return success();
  }
};

std::string checkAlloc(gpu::AllocOp op) {
  if (op.getMemref().getType().getLayout().isIdentity() &&
      op.getSymbolOperands().empty())
    return "";
  return "only memrefs with the identity layout can be allocated; allocate "
         "one and take a view of it with memref.subview or "
         "memref.reinterpret_cast";
}

/// gpu.alloc: device memory for a memref with an identity layout.
class AllocOpLowering : public RuntimeCallPattern<gpu::AllocOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = checkAlloc(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    MemRefType type = op.getMemref().getType();
    Location loc = op.getLoc();

    FailureOr<Value> stream =
        getStream(rewriter, op, adaptor.getAsyncDependencies());
    if (failed(stream))
      return failure();

    SmallVector<Value> sizes, strides;
    Value bytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             sizes, strides, bytes);
    Value hostShared = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI8Type(),
        rewriter.getI8IntegerAttr(op.getHostShared() ? 1 : 0));
    FailureOr<Value> pointer = call(rewriter, op, MgpuFunction::mgpuMemAllocAt,
                                    {bytes, *stream, hostShared});
    if (failed(pointer))
      return failure();

    Value typed = *pointer;
    Type elementPtrType = getElementPtrType(type);
    if (typed.getType() != elementPtrType)
      typed =
          LLVM::AddrSpaceCastOp::create(rewriter, loc, elementPtrType, typed);
    Value descriptor = createMemRefDescriptor(loc, type, typed, typed, sizes,
                                              strides, rewriter);
    replaceWithStream(rewriter, op, {descriptor}, *stream);
    return success();
  }
};

std::string checkDealloc(gpu::DeallocOp op) {
  return checkStrided(op.getMemref().getType(), "memref");
}

/// gpu.dealloc: frees the allocation the memref was made from.
class DeallocOpLowering : public RuntimeCallPattern<gpu::DeallocOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = checkDealloc(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Location loc = op.getLoc();
    FailureOr<Value> stream =
        getStream(rewriter, op, adaptor.getAsyncDependencies());
    if (failed(stream))
      return failure();
    Value pointer = toGenericPointer(
        rewriter, loc,
        MemRefDescriptor(adaptor.getMemref()).allocatedPtr(rewriter, loc));
    if (failed(call(rewriter, op, MgpuFunction::mgpuMemFreeAt,
                    {pointer, *stream})))
      return failure();
    replaceWithStream(rewriter, op, {}, *stream);
    return success();
  }
};

/// gpu.wait: the async form merges its dependencies into one stream; the
/// synchronous form waits for its dependencies and releases their streams.
class WaitOpLowering : public RuntimeCallPattern<gpu::WaitOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getAsyncToken()) {
      FailureOr<Value> stream =
          getStream(rewriter, op, adaptor.getAsyncDependencies());
      if (failed(stream))
        return failure();
      rewriter.replaceOp(op, *stream);
      return success();
    }
    llvm::SetVector<Value> streams(adaptor.getAsyncDependencies().begin(),
                                   adaptor.getAsyncDependencies().end());
    for (Value stream : streams) {
      if (failed(call(rewriter, op, MgpuFunction::mgpuStreamSynchronizeAt,
                      {stream})) ||
          failed(
              call(rewriter, op, MgpuFunction::mgpuStreamDestroyAt, {stream})))
        return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// gpu.host_register and gpu.host_unregister: pass the unranked memref's
/// rank and descriptor, so the runtime pins exactly the bytes it spans.
template <typename OpTy, MgpuFunction fn>
class HostRegistrationLowering : public RuntimeCallPattern<OpTy> {
public:
  using RuntimeCallPattern<OpTy>::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<UnrankedMemRefType>(op.getValue().getType());
    UnrankedMemRefDescriptor descriptor(adaptor.getValue());
    Value rank = descriptor.rank(rewriter, loc);
    Value ranked = descriptor.memRefDescPtr(rewriter, loc);
    Value elementBytes =
        this->getElementBytes(rewriter, loc, type.getElementType());
    if (failed(this->call(rewriter, op, fn, {rank, ranked, elementBytes})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether the kernel `op` launches is in a gpu.binary, compiled for a GPU.
bool launchesDeviceKernel(gpu::LaunchFuncOp op) {
  return SymbolTable::lookupNearestSymbolFrom<gpu::BinaryOp>(
      op, op.getKernelModuleName());
}

/// The kernel's host entry, where gpu-runner-host-kernels compiled it for
/// the host.
FlatSymbolRefAttr getHostEntry(gpu::LaunchFuncOp op) {
  Operation *kernel =
      SymbolTable::lookupNearestSymbolFrom(op, op.getKernelAttr());
  return kernel ? kernel->getAttrOfType<FlatSymbolRefAttr>(kHostEntryAttrName)
                : FlatSymbolRefAttr();
}

/// A launch needs its kernel compiled for the backend: in a gpu.binary on a
/// GPU, as a host entry on the host.
std::string checkLaunch(gpu::LaunchFuncOp op) {
  if (launchesDeviceKernel(op))
    return "";
  if (!getHostEntry(op))
    return "the kernel was not compiled for this backend";
  return "";
}

/// gpu.launch_func of a kernel compiled for the host: the arguments are
/// packed into a struct on the stack (the runtime copies it) and the
/// kernel's entry runs over the grid. A launch without clusters passes
/// clusters of 1 x 1 x 1 blocks, which is what CUDA reports for it.
class LaunchFuncOpLowering : public RuntimeCallPattern<gpu::LaunchFuncOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::LaunchFuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (launchesDeviceKernel(op))
      return rewriter.notifyMatchFailure(op, "a kernel in a gpu.binary");
    if (std::string reason = checkLaunch(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Operation *kernel =
        SymbolTable::lookupNearestSymbolFrom(op, op.getKernelAttr());
    FlatSymbolRefAttr entry = getHostEntry(op);
    Location loc = op.getLoc();

    FailureOr<Value> stream =
        getStream(rewriter, op, adaptor.getAsyncDependencies());
    if (failed(stream))
      return failure();

    LogicalResult emitted =
        withStackFrame(rewriter, loc, [&]() -> LogicalResult {
          ValueRange operands = adaptor.getKernelOperands();
          Value args = nullPointer(rewriter, loc);
          Value argsBytes = constantI64(rewriter, loc, 0);
          if (!operands.empty()) {
            auto type = LLVM::LLVMStructType::getLiteral(
                rewriter.getContext(), llvm::to_vector(operands.getTypes()));
            Value packed = LLVM::PoisonOp::create(rewriter, loc, type);
            for (auto [i, operand] : llvm::enumerate(operands))
              packed = LLVM::InsertValueOp::create(rewriter, loc, packed,
                                                   operand, i);
            args = spillDescriptor(rewriter, loc, packed);
            argsBytes = getBytes(rewriter, loc, type, 1);
          }
          Value bytes = adaptor.getDynamicSharedMemorySize();
          Value dynamicShared =
              bytes ? LLVM::SExtOp::create(rewriter, loc, rewriter.getI64Type(),
                                           bytes)
                    : constantI64(rewriter, loc, 0);
          int64_t staticShared =
              kernel->getAttrOfType<IntegerAttr>(kHostStaticSharedBytesAttrName)
                  .getInt();
          int32_t flags = 0;
          if (kernel->hasAttr(kHostUsesFibersAttrName))
            flags |= kHostKernelUsesFibers;
          if (kernel->hasAttr(kHostResumesAfterAssertionsAttrName))
            flags |= kHostKernelResumesAfterAssertions;
          Value entryAddress = LLVM::AddressOfOp::create(
              rewriter, loc, this->getPtrType(), entry.getValue());
          Value name = getConstantString(
              rewriter, loc, SymbolTable::getSymbolName(kernel).getValue());
          SmallVector<Value, 3> cluster;
          if (op.hasClusterSize())
            cluster = {adaptor.getClusterSizeX(), adaptor.getClusterSizeY(),
                       adaptor.getClusterSizeZ()};
          else
            cluster.assign(3, constantI64(rewriter, loc, 1));
          return call(
              rewriter, op, MgpuFunction::mgpuLaunchHostKernelAt,
              {entryAddress, cluster[0], cluster[1], cluster[2],
               adaptor.getGridSizeX(), adaptor.getGridSizeY(),
               adaptor.getGridSizeZ(), adaptor.getBlockSizeX(),
               adaptor.getBlockSizeY(), adaptor.getBlockSizeZ(), dynamicShared,
               constantI64(rewriter, loc, staticShared),
               LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                        rewriter.getI32IntegerAttr(flags)),
               args, argsBytes, *stream, name});
        });
    if (failed(emitted))
      return failure();
    replaceWithStream(rewriter, op, {}, *stream);
    return success();
  }
};

/// gpu.launch_func of a kernel in a gpu.binary: the arguments as the
/// kernel's lowered signature takes them (memrefs expanded into their
/// descriptor's fields), each stored on the stack with an array of pointers
/// to them, and the function handle the module's constructor looked up.
class DeviceLaunchFuncOpLowering
    : public RuntimeCallPattern<gpu::LaunchFuncOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::LaunchFuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef binaryName = op.getKernelModuleName().getValue();
    if (!launchesDeviceKernel(op))
      return rewriter.notifyMatchFailure(op, "a kernel compiled for the host");
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto functionGlobal = module.lookupSymbol<LLVM::GlobalOp>(
        getDeviceFunctionGlobalName(binaryName, op.getKernelName().getValue()));
    if (!functionGlobal)
      return rewriter.notifyMatchFailure(op, "gpu.binary not lowered yet");

    FailureOr<Value> stream =
        getStream(rewriter, op, adaptor.getAsyncDependencies());
    if (failed(stream))
      return failure();

    LogicalResult emitted =
        withStackFrame(rewriter, loc, [&]() -> LogicalResult {
          SmallVector<Value> arguments = getTypeConverter()->promoteOperands(
              loc, op.getKernelOperands(), adaptor.getKernelOperands(),
              rewriter,
              /*useBarePtrCallConv=*/false);
          Value params = nullPointer(rewriter, loc);
          if (!arguments.empty()) {
            auto structType = LLVM::LLVMStructType::getLiteral(
                rewriter.getContext(),
                llvm::to_vector(ValueRange(arguments).getTypes()));
            Value one = constantI64(rewriter, loc, 1);
            Value values = LLVM::AllocaOp::create(rewriter, loc, getPtrType(),
                                                  structType, one);
            auto arrayType =
                LLVM::LLVMArrayType::get(getPtrType(), arguments.size());
            params = LLVM::AllocaOp::create(rewriter, loc, getPtrType(),
                                            arrayType, one);
            for (auto [i, argument] : llvm::enumerate(arguments)) {
              Value field = LLVM::GEPOp::create(
                  rewriter, loc, getPtrType(), structType, values,
                  ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
              LLVM::StoreOp::create(rewriter, loc, argument, field);
              Value slot = LLVM::GEPOp::create(
                  rewriter, loc, getPtrType(), getPtrType(), params,
                  ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
              LLVM::StoreOp::create(rewriter, loc, field, slot);
            }
          }
          Value paramCount = constantI64(
              rewriter, loc, static_cast<int64_t>(arguments.size()));
          Value sharedBytes = adaptor.getDynamicSharedMemorySize();
          if (!sharedBytes)
            sharedBytes =
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         rewriter.getI32IntegerAttr(0));
          Value function = LLVM::LoadOp::create(
              rewriter, loc, getPtrType(),
              LLVM::AddressOfOp::create(rewriter, loc, functionGlobal));
          SmallVector<Value> callArgs = {function};
          MgpuFunction callee = MgpuFunction::mgpuLaunchKernelAt;
          if (op.hasClusterSize()) {
            callee = MgpuFunction::mgpuLaunchClusterKernelAt;
            callArgs.append({adaptor.getClusterSizeX(),
                             adaptor.getClusterSizeY(),
                             adaptor.getClusterSizeZ()});
          }
          callArgs.append({adaptor.getGridSizeX(), adaptor.getGridSizeY(),
                           adaptor.getGridSizeZ(), adaptor.getBlockSizeX(),
                           adaptor.getBlockSizeY(), adaptor.getBlockSizeZ(),
                           sharedBytes, *stream, params, paramCount});
          return call(rewriter, op, callee, callArgs);
        });
    if (failed(emitted))
      return failure();
    replaceWithStream(rewriter, op, {}, *stream);
    return success();
  }
};

/// async.yield of gpu tokens: each token leaves the region as an event
/// recorded on its stream, and the region's streams are released, so that
/// every region awaiting the token gets a stream of its own (upstream's
/// convention, which gpu-async-region relies on).
class AsyncYieldOpLowering : public RuntimeCallPattern<async::YieldOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(async::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (llvm::none_of(op.getOperandTypes(),
                      [](Type type) { return isa<gpu::AsyncTokenType>(type); }))
      return rewriter.notifyMatchFailure(op, "no gpu token to yield");
    SmallVector<Value> operands;
    llvm::SetVector<Value> streams;
    for (auto [original, converted] :
         llvm::zip_equal(op.getOperands(), adaptor.getOperands())) {
      if (!isa<gpu::AsyncTokenType>(original.getType())) {
        operands.push_back(converted);
        continue;
      }
      FailureOr<Value> event = call(
          rewriter, op, MgpuFunction::mgpuStreamRecordEventAt, {converted});
      if (failed(event))
        return failure();
      operands.push_back(*event);
      streams.insert(converted);
    }
    for (Value stream : streams)
      if (failed(
              call(rewriter, op, MgpuFunction::mgpuStreamDestroyAt, {stream})))
        return failure();
    rewriter.replaceOpWithNewOp<async::YieldOp>(op, operands);
    return success();
  }
};

/// gpu.set_default_device.
class SetDefaultDeviceOpLowering
    : public RuntimeCallPattern<gpu::SetDefaultDeviceOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::SetDefaultDeviceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(call(rewriter, op, MgpuFunction::mgpuSetDefaultDeviceAt,
                    {adaptor.getDevIndex()})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void addGpuTypeConversions(LLVMTypeConverter &converter,
                           bool hostWorkgroupMemory) {
  MLIRContext *context = &converter.getContext();
  converter.addConversion([context](gpu::AsyncTokenType) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  populateGpuMemorySpaceAttributeConversions(
      converter, [hostWorkgroupMemory](gpu::AddressSpace space) -> unsigned {
        switch (space) {
        case gpu::AddressSpace::Global:
          return 1;
        case gpu::AddressSpace::Workgroup:
          return hostWorkgroupMemory ? 0 : 3;
        case gpu::AddressSpace::Private:
          return 5;
        }
        llvm_unreachable("unknown address space");
      });
}

FailureOr<Type>
getPackedArgumentsType(const LLVMTypeConverter &converter, TypeRange types,
                       function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<Type> fields;
  for (Type type : types) {
    Type converted = converter.convertType(type);
    if (!converted)
      return emitError() << "a kernel argument of type " << type
                         << " cannot be passed on the host backend";
    fields.push_back(converted);
  }
  return LLVM::LLVMStructType::getLiteral(&converter.getContext(), fields);
}

std::string getUnsupportedFormReason(Operation *op, unsigned indexBitwidth) {
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([](gpu::MemcpyOp op) { return checkMemcpy(op); })
      .Case([&](gpu::MemsetOp op) { return checkMemset(op, indexBitwidth); })
      .Case([](gpu::AllocOp op) { return checkAlloc(op); })
      .Case([](gpu::DeallocOp op) { return checkDealloc(op); })
      .Case([](gpu::LaunchFuncOp op) { return checkLaunch(op); })
      .Case<gpu::WaitOp, gpu::HostRegisterOp, gpu::HostUnregisterOp,
            gpu::SetDefaultDeviceOp>([](Operation *) { return ""; })
      .Case([](gpu::LaunchOp) {
        return "its body is lowered once outlined into a kernel "
               "(--gpu-kernel-outlining), as the pipelines do";
      })
      .Case<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
            gpu::GlobalIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
            gpu::SubgroupSizeOp, gpu::NumSubgroupsOp, gpu::BarrierOp,
            gpu::ShuffleOp, gpu::AllReduceOp, gpu::SubgroupReduceOp,
            gpu::DynamicSharedMemoryOp, gpu::PrintfOp>([](Operation *) {
        return "this op runs only inside kernels: put it in the body of a "
               "gpu.launch, or in a gpu.func kernel that gpu.launch_func "
               "launches";
      })
      .Case<gpu::CreateDnTensorOp, gpu::DestroyDnTensorOp, gpu::CreateCooOp,
            gpu::CreateCooAoSOp, gpu::CreateCsrOp, gpu::CreateCscOp,
            gpu::CreateBsrOp, gpu::Create2To4SpMatOp, gpu::DestroySpMatOp,
            gpu::SpMVBufferSizeOp, gpu::SpMVOp, gpu::SpMMBufferSizeOp,
            gpu::SpMMOp, gpu::SDDMMBufferSizeOp, gpu::SDDMMOp,
            gpu::SpGEMMCreateDescrOp, gpu::SpGEMMDestroyDescrOp,
            gpu::SpGEMMWorkEstimationOrComputeOp, gpu::SpGEMMCopyOp,
            gpu::SpMatGetSizeOp, gpu::SetCsrPointersOp>([](Operation *) {
        return "it is one of the gpu dialect's sparse ops, which stand for "
               "calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); "
               "no gpu-runner backend runs them. Write the sparse kernel "
               "with gpu.launch or gpu.launch_func instead";
      })
      .Default([](Operation *) {
        return "this op is not supported in host code; host code may use "
               "gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset, gpu.wait, "
               "gpu.launch, gpu.launch_func, gpu.host_register, "
               "gpu.host_unregister and gpu.set_default_device";
      });
}

void populateGpuRuntimeToLLVMPatterns(const LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<
      MemcpyOpLowering, MemsetOpLowering, AllocOpLowering, DeallocOpLowering,
      WaitOpLowering,
      HostRegistrationLowering<gpu::HostRegisterOp,
                               MgpuFunction::mgpuMemHostRegisterMemRefAt>,
      HostRegistrationLowering<gpu::HostUnregisterOp,
                               MgpuFunction::mgpuMemHostUnregisterMemRefAt>,
      SetDefaultDeviceOpLowering, LaunchFuncOpLowering,
      DeviceLaunchFuncOpLowering>(converter);
  // Before async's structural type conversion of the same op.
  patterns.add<AsyncYieldOpLowering>(converter, /*benefit=*/2);
}

} // namespace gpu_runner
