//===- CheckLowered.cpp - Everything left must be LLVM dialect ------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKLOWERED
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

class CheckLoweredPass : public impl::CheckLoweredBase<CheckLoweredPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> leftovers, casts;
    module.walk([&](Operation *op) {
      if (op == module || isa<LLVM::LLVMDialect>(op->getDialect()))
        return;
      if (isa<UnrealizedConversionCastOp>(op))
        casts.push_back(op);
      else
        leftovers.push_back(op);
    });

    // An op without a lowering leaves casts around it; the op is what the
    // user needs to hear about.
    for (Operation *op : leftovers) {
      InFlightDiagnostic diag = op->emitError();
      diag << "'" << op->getName() << "' has no lowering to the LLVM dialect "
           << "in gpu-runner";
      if (!op->getDialect())
        diag << " (its dialect '" << op->getName().getDialectNamespace()
             << "' is not one gpu-runner accepts)";
      diag << ": write it with ops that have one (arith, math, memref, scf, "
              "cf, vector, func, llvm), or lower it to those first with "
              "--passes";
    }
    // Of a chain of casts, the first says which conversion was missing.
    if (leftovers.empty())
      for (Operation *op : casts)
        if (!llvm::any_of(op->getOperands(), [](Value operand) {
              return operand.getDefiningOp<UnrealizedConversionCastOp>();
            }))
          op->emitError() << "a value of type " << op->getOperandTypes()
                          << " could not be converted to "
                          << op->getResultTypes();
    if (!leftovers.empty() || !casts.empty())
      return signalPassFailure();

    // Programs may call runtime functions themselves (the timers); the JIT
    // binds a name to the C function whatever type the program declared, so
    // a wrong declaration is caught here rather than as garbage at run time.
    bool mismatch = false;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      std::optional<MgpuFunction> fn = lookupMgpuFunction(function.getName());
      if (!fn || !function.isExternal())
        continue;
      LLVM::LLVMFunctionType expected =
          getMgpuFunctionType(module.getContext(), *fn);
      if (function.getFunctionType() == expected)
        continue;
      function.emitError() << "'" << function.getName()
                           << "' is declared with type "
                           << function.getFunctionType()
                           << " once lowered, but gpu-runner's runtime "
                              "defines it as "
                           << expected;
      mismatch = true;
    }
    // The ROCm runtime's functions, which the lowering replaced where the
    // types were its own: what is left calls them with others.
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      StringRef name = function.getName();
      if ((name != kDeviceMemRefFloat && name != kDeviceMemRefInt32) ||
          !function.isExternal() ||
          SymbolTable::symbolKnownUseEmpty(function, module))
        continue;
      StringRef type =
          name == kDeviceMemRefFloat ? "memref<?xf32>" : "memref<?xi32>";
      function.emitError() << "'" << name
                           << "' is declared with other types than the ROCm "
                              "runtime's, which takes one "
                           << type << " and returns one";
      mismatch = true;
    }
    if (mismatch)
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
