//===- MathToOcml.cpp - A HIP kernel module's math ops to ocml calls ------===//
//
// convert-gpu-to-rocdl lowers math ops to LLVM intrinsics, and the AMDGPU
// code generator has neither instructions nor library calls for many of
// them (llvm.tanh, llvm.atan2, llvm.sinh, ...). ROCm's device libraries have
// them all: upstream's math-to-ROCDL patterns call ocml's functions, which
// the ROCDL target links from ocml.bc when the module declares them.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/MathToOcml.h"

#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToROCDL/MathToROCDL.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace gpu_runner {
namespace {

class MathToOcmlPass
    : public PassWrapper<MathToOcmlPass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToOcmlPass)

  MathToOcmlPass() = default;
  MathToOcmlPass(const MathToOcmlPass &other) : PassWrapper(other) {}
  explicit MathToOcmlPass(StringRef chip) { chipset = chip.str(); }

  StringRef getName() const override { return "MathToOcml"; }
  StringRef getArgument() const final { return "gpu-runner-math-to-ocml"; }
  StringRef getDescription() const final {
    return "Lower a HIP kernel module's math ops to calls of ROCm's ocml "
           "functions";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, ROCDL::ROCDLDialect>();
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    std::optional<amdgpu::Chipset> chip;
    if (!chipset.empty()) {
      FailureOr<amdgpu::Chipset> parsed = amdgpu::Chipset::parse(chipset);
      if (failed(parsed)) {
        module.emitError() << "gpu-runner-math-to-ocml: '" << chipset
                           << "' is not an AMD GPU chip name";
        return signalPassFailure();
      }
      chip = *parsed;
    }
    LowerToLLVMOptions options(context, DataLayout(module));
    LLVMTypeConverter converter(context, options);
    RewritePatternSet patterns(context);
    populateMathToROCDLConversionPatterns(converter, patterns, chip);
    // Only the math ops that a pattern takes change; the rest are left to
    // convert-gpu-to-rocdl.
    ConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect, ROCDL::ROCDLDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

  Option<std::string> chipset{
      *this, "chipset",
      llvm::cl::desc("The chip the module is compiled for (gfx90a, ...)")};
};

} // namespace

std::unique_ptr<Pass> createMathToOcml(StringRef chip) {
  return std::make_unique<MathToOcmlPass>(chip);
}

void registerMathToOcml() { PassRegistration<MathToOcmlPass>(); }

} // namespace gpu_runner
