//===- CheckHostAccesses.cpp - Host code touching device memory -----------===//
//
// See the description of gpu-runner-check-host-accesses in Passes.td. The
// host backend's device memory is host memory, so a program whose host code
// reads gpu.alloc's memory runs here and faults on a GPU; memcheck makes it
// an error at the op. What an op touches comes from its memory effects, so
// that every op that reads or writes a memref (memref, affine, vector,
// linalg) is checked, once per run of the op, by the memref's base.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/checks/CheckCalls.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKHOSTACCESSES
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

constexpr StringLiteral kCheckFunction = "mgpuHostCheckHostAccessAt";

/// `access` of mgpuHostCheckHostAccessAt.
enum class Access : int32_t { Read = 0, Write = 1, PassToFunction = 2 };

class CheckHostAccessesPass
    : public impl::CheckHostAccessesBase<CheckHostAccessesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<Operation *, SmallVector<std::pair<Value, Access>>>>
        work;
    module->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Kernels, outlined or not, are not host code, and the gpu ops are
      // the runtime's, which takes device memory.
      if (isa<gpu::GPUModuleOp, gpu::BinaryOp, gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<gpu::GPUDialect>(op->getDialect()) ||
          !op->getParentOfType<FunctionOpInterface>())
        return WalkResult::advance();
      SmallVector<std::pair<Value, Access>> touched = getTouchedMemrefs(op);
      if (!touched.empty())
        work.emplace_back(op, std::move(touched));
      return WalkResult::advance();
    });

    if (work.empty())
      return;
    SymbolTable symbols(module);
    MLIRContext *context = module.getContext();
    Type index = IndexType::get(context);
    auto type = FunctionType::get(
        context, {index, IntegerType::get(context, 32), index}, {});
    func::FuncOp check = getCheckFunction(module, symbols, kCheckFunction, type,
                                          "--check=memcheck");
    if (!check)
      return signalPassFailure();
    LocStrings locStrings(module, symbols);
    for (auto &[op, touched] : work) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value locString = locStrings.get(b, loc, getRuntimeLocation(op));
      for (auto [memref, access] : touched) {
        Value address =
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
        func::CallOp::create(b, loc, check,
                             ValueRange{address,
                                        arith::ConstantIntOp::create(
                                            b, loc, int64_t(access), 32),
                                        locString});
      }
    }
  }

private:
  /// The ranked memrefs `op` reads or writes, or, for a call of a function
  /// the program does not define (printMemrefF32, ...), passes to it; each
  /// once, as a write where it is both read and written.
  static SmallVector<std::pair<Value, Access>>
  getTouchedMemrefs(Operation *op) {
    SmallVector<std::pair<Value, Access>> touched;
    auto add = [&](Value value, Access access) {
      value = getRankedSource(value);
      if (!value)
        return;
      for (auto &[existing, existingAccess] : touched) {
        if (existing == value) {
          if (access == Access::Write)
            existingAccess = Access::Write;
          return;
        }
      }
      touched.emplace_back(value, access);
    };
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && callee.isExternal())
        for (Value operand : call.getOperands())
          add(operand, Access::PassToFunction);
      return touched;
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return touched;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &instance : instances) {
      Value value = instance.getValue();
      if (!value)
        continue;
      if (isa<MemoryEffects::Read>(instance.getEffect()))
        add(value, Access::Read);
      else if (isa<MemoryEffects::Write>(instance.getEffect()))
        add(value, Access::Write);
    }
    return touched;
  }

  /// `value` if it is a ranked memref, or the ranked memref an unranked one
  /// was cast from; null for anything else.
  static Value getRankedSource(Value value) {
    if (isa<MemRefType>(value.getType()))
      return value;
    if (!isa<UnrankedMemRefType>(value.getType()))
      return nullptr;
    if (auto cast = value.getDefiningOp<memref::CastOp>())
      return getRankedSource(cast.getSource());
    return nullptr;
  }
};

} // namespace
} // namespace gpu_runner
