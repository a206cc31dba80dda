//===- GpuToLLVMPass.cpp - The host-code conversion to the LLVM dialect ---===//
//
// The pass gpu-runner-gpu-to-llvm: one dialect conversion lowers the gpu
// runtime ops (the patterns of GpuRuntimeToLLVM.cpp) together with the host
// dialects around them, so that async tokens and memrefs are converted
// once, consistently. Before converting, every gpu op of the host code is
// checked for a form those patterns lower (getUnsupportedFormReason), so
// that an unsupported form is reported with the reason instead of a
// generic "failed to legalize".
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/checks/VendorOps.h"
#include "lowering/device/DeviceBinaries.h"
#include "lowering/host/HostKernels.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "mlir/IR/SymbolTable.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/AsyncToLLVM/AsyncToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace gpu_runner {
#define GEN_PASS_DEF_GPUTOLLVM
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// Reports the first gpu op of the host code in a form the lowering does not
/// support, with the reason.
LogicalResult checkSupportedForms(ModuleOp module, unsigned indexBitwidth) {
  WalkResult result =
      module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
          return WalkResult::skip();
        if (!isa_and_nonnull<gpu::GPUDialect>(op->getDialect()))
          return WalkResult::advance();

        std::string reason = getUnsupportedFormReason(op, indexBitwidth);
        if (reason.empty())
          return WalkResult::advance();
        op->emitError() << "'" << op->getName()
                        << "' cannot be lowered: " << reason;
        return WalkResult::interrupt();
      });
  return failure(result.wasInterrupted());
}

class GpuToLLVMPass : public impl::GpuToLLVMBase<GpuToLLVMPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();

    LowerToLLVMOptions options(context);
    LLVMTypeConverter converter(context, options);
    addGpuTypeConversions(converter, /*hostWorkgroupMemory=*/true);

    if (failed(refuseVendorOps(module, VendorOpPlace::HostCode)) ||
        failed(checkSupportedForms(module, converter.getIndexTypeBitwidth())) ||
        failed(lowerDeviceBinaries(module)))
      return signalPassFailure();

    LLVMConversionTarget target(*context);
    target.addIllegalDialect<gpu::GPUDialect>();
    // Device code is compiled separately; its launches use it.
    target.addLegalOp<gpu::GPUModuleOp, gpu::BinaryOp>();
    target.markOpRecursivelyLegal<gpu::GPUModuleOp>();

    RewritePatternSet patterns(context);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    // A failed cf.assert is an error at its op, not an abort.
    populateAssertToMgpuCallPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    // memref.dealloc and the timer calls with errors at their location.
    populateLocatedHostCallPatterns(converter, patterns);
    populateFloatAtomicsToLLVMPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    // Intrinsics where LLVM has them, libm calls for the rest.
    populateMathToLLVMConversionPatterns(converter, patterns,
                                         /*approximateLog1p=*/true,
                                         /*benefit=*/2);
    populateMathToLibmConversionPatterns(patterns, /*benefit=*/1);
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateComplexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    populateGpuRuntimeToLLVMPatterns(converter, patterns);
    // async.execute, async.await and async.yield keep their ops for the
    // async lowering that follows, with the types of their values converted.
    populateAsyncStructuralTypeConversionsAndLegality(converter, patterns,
                                                      target);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Kernels run from their host copies, or from the modules the binaries'
    // constructors load; once the launches are lowered, the kernel modules
    // and binaries have no use left.
    for (auto deviceModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      deviceModule.erase();
    for (auto binary :
         llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
      binary.erase();

    // The loop annotation an scf.for carried reaches its latch branch as a
    // discardable attribute (scf-to-cf, then cf-to-llvm); LLVM IR's
    // translation reads the branch's own.
    module.walk([](Operation *op) {
      auto annotation =
          op->getAttrOfType<LLVM::LoopAnnotationAttr>(kLoopAnnotationAttrName);
      if (!annotation)
        return;
      if (auto branch = dyn_cast<LLVM::BrOp>(op))
        branch.setLoopAnnotationAttr(annotation);
      else if (auto branch = dyn_cast<LLVM::CondBrOp>(op))
        branch.setLoopAnnotationAttr(annotation);
      op->removeAttr(kLoopAnnotationAttrName);
    });
  }
};

} // namespace
} // namespace gpu_runner
