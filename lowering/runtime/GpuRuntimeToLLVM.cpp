//===- GpuRuntimeToLLVM.cpp - gpu runtime ops to mgpu ABI calls -----------===//
//
// One pattern per gpu runtime op; the launches are in LaunchFuncToLLVM.cpp,
// the base every pattern derives from in RuntimeCallPattern.h. An async token
// is lowered to the stream its op was enqueued on:
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

#include "lowering/runtime/RuntimeCallPattern.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace gpu_runner {
namespace {

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
      SetDefaultDeviceOpLowering>(converter);
  populateLaunchFuncToLLVMPatterns(converter, patterns);
  // Before async's structural type conversion of the same op.
  patterns.add<AsyncYieldOpLowering>(converter, /*benefit=*/2);
}

} // namespace gpu_runner
