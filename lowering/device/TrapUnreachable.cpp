//===- TrapUnreachable.cpp - Kernels trap where they reach unreachable ----===//
//
// The GPU code generators treat llvm.unreachable as a promise: AMDGPU folds
// the branch to it away or falls through, NVPTX exits the thread. Neither
// tells the user. A trap before it keeps the branch and fails the launch.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace gpu_runner {
#define GEN_PASS_DEF_TRAPUNREACHABLE
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

class TrapUnreachablePass
    : public impl::TrapUnreachableBase<TrapUnreachablePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([](LLVM::UnreachableOp unreachable) {
      Operation *previous = unreachable->getPrevNode();
      if (isa_and_nonnull<LLVM::Trap, LLVM::UBSanTrap>(previous))
        return;
      OpBuilder builder(unreachable);
      LLVM::Trap::create(builder, unreachable.getLoc());
    });
  }
};

} // namespace
} // namespace gpu_runner
