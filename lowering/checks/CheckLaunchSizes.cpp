//===- CheckLaunchSizes.cpp - Launches checked against known sizes --------===//
//
// See CheckLaunchSizes.h.
//
//===----------------------------------------------------------------------===//

#include "lowering/checks/CheckLaunchSizes.h"

#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>
#include <string>

using namespace mlir;

namespace gpu_runner {
namespace {

class CheckLaunchSizesPass
    : public PassWrapper<CheckLaunchSizesPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckLaunchSizesPass)

  StringRef getArgument() const final {
    return "gpu-runner-check-launch-sizes";
  }
  StringRef getDescription() const final {
    return "Check each launch of a kernel against its known_block_size and "
           "known_grid_size when it runs";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect>();
  }

  void runOnOperation() override {
    SymbolTableCollection symbols;
    getOperation()->walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernelAttr());
      if (!kernel)
        return; // already compiled, or not a gpu.func
      std::string name = kernel.getName().str();
      check(launch, kernel.getKnownBlockSize(),
            launch.getBlockSizeOperandValues(), "block", "known_block_size",
            name);
      check(launch, kernel.getKnownGridSize(),
            launch.getGridSizeOperandValues(), "grid", "known_grid_size", name);
    });
  }

private:
  /// Asserts, before `launch`, that `sizes` are `known`.
  static void check(gpu::LaunchFuncOp launch,
                    std::optional<ArrayRef<int32_t>> known,
                    gpu::KernelDim3 sizes, StringRef what, StringRef attribute,
                    StringRef kernel) {
    if (!known || known->size() != 3)
      return;
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    Value matches;
    std::string expected;
    Value launched[] = {sizes.x, sizes.y, sizes.z};
    for (auto [i, size] : llvm::enumerate(launched)) {
      int64_t value = (*known)[i];
      Value equal =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                arith::ConstantIndexOp::create(b, loc, value));
      matches = matches ? arith::AndIOp::create(b, loc, matches, equal) : equal;
      expected += (i ? ", " : "") + std::to_string(value);
    }
    std::string message =
        ("the " + what + " size is not (" + expected + "), the " + attribute +
         " of kernel '" + kernel + "', for which it was compiled")
            .str();
    auto assertion = cf::AssertOp::create(b, loc, matches, message);
    assertion->setAttr(kRuntimeOpNameAttrName,
                       b.getStringAttr(launch->getName().getStringRef()));
  }
};

} // namespace

std::unique_ptr<Pass> createCheckLaunchSizes() {
  return std::make_unique<CheckLaunchSizesPass>();
}

void registerCheckLaunchSizes() { PassRegistration<CheckLaunchSizesPass>(); }

} // namespace gpu_runner
