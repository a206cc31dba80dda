//===- LaunchFuncToLLVM.cpp - gpu.launch_func to mgpu ABI calls -----------===//
//
// A launch of a kernel that gpu-runner-host-kernels compiled for the host
// passes the host entry the kernel's annotations name (host/HostKernels.h);
// a launch of a kernel in a gpu.binary passes the function handle that the
// binary's constructor looked up (device/DeviceBinaries.h). Either way the
// stream is found as for every runtime op (RuntimeCallPattern.h).
//
//===----------------------------------------------------------------------===//

#include "lowering/runtime/RuntimeCallPattern.h"

#include "lowering/device/DeviceBinaries.h"
#include "lowering/host/HostKernels.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace gpu_runner {
namespace {

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

} // namespace

/// A launch needs its kernel compiled for the backend: in a gpu.binary on a
/// GPU, as a host entry on the host.
std::string checkLaunch(gpu::LaunchFuncOp op) {
  if (launchesDeviceKernel(op))
    return "";
  if (!getHostEntry(op))
    return "the kernel was not compiled for this backend";
  return "";
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

void populateLaunchFuncToLLVMPatterns(const LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<LaunchFuncOpLowering, DeviceLaunchFuncOpLowering>(converter);
}

} // namespace gpu_runner
