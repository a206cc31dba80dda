//===- CheckAllocSizes.cpp - Run-time checks of dynamic allocation sizes --===//
//
// See the description of gpu-runner-check-alloc-sizes in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "lowering/MgpuCalls.h"
#include "lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKALLOCSIZES
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

class CheckAllocSizesPass
    : public impl::CheckAllocSizesBase<CheckAllocSizesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> allocations;
    getOperation().walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          op->getNumOperands() > 0)
        allocations.push_back(op);
    });
    DataLayout dataLayout = DataLayout::closest(getOperation());
    for (Operation *op : allocations)
      check(op, dataLayout);
  }

private:
  void check(Operation *op, const DataLayout &dataLayout) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    ValueRange sizes = isa<memref::AllocOp>(op)
                           ? cast<memref::AllocOp>(op).getDynamicSizes()
                           : cast<memref::AllocaOp>(op).getDynamicSizes();
    if (sizes.empty())
      return;
    // The static part of the byte count; a static shape too large for an
    // index does not verify, so this cannot overflow in practice.
    uint64_t staticBytes = dataLayout.getTypeSize(type.getElementType());
    for (int64_t dim : type.getShape())
      if (!ShapedType::isDynamic(dim))
        staticBytes *= static_cast<uint64_t>(dim);

    Location loc = op->getLoc();
    OpBuilder b(op);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value bytes = arith::ConstantIndexOp::create(
        b, loc, static_cast<int64_t>(staticBytes));
    Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (Value size : sizes) {
      Value nonNegative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size, zero);
      // With both factors at least 0, the product fits if its high half is
      // 0 and its low half is not negative.
      auto product = arith::MulUIExtendedOp::create(b, loc, bytes, size);
      Value highZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             product.getHigh(), zero);
      Value lowFits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            product.getLow(), zero);
      ok = arith::AndIOp::create(b, loc, ok, nonNegative);
      ok = arith::AndIOp::create(b, loc, ok, highZero);
      ok = arith::AndIOp::create(b, loc, ok, lowFits);
      bytes = product.getLow();
    }
    std::string where = getRuntimeLocation(op);
    size_t at = where.find('@');
    std::string message =
        (at == std::string::npos ? "" : where.substr(at + 1) + ": ") +
        "error: " + op->getName().getStringRef().str() +
        ": a size is negative, or the allocation has more bytes than an "
        "index can count";
    cf::AssertOp::create(b, loc, ok, message);
  }
};

} // namespace
} // namespace gpu_runner
