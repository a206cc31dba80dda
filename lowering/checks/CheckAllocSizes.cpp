//===- CheckAllocSizes.cpp - Run-time checks of allocation sizes ----------===//
//
// See the description of gpu-runner-check-alloc-sizes in Passes.td. The
// check is written in arith ops before the host code is lowered; a helper
// function calls the runtime (mgpuAllocSizeErrorAt, in wrappers/MgpuAbi.def)
// only for a failed one, which is reported at the op, with the sizes, on
// stderr.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKALLOCSIZES
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// The dynamic sizes of an allocation op.
ValueRange getDynamicSizes(Operation *op) {
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    return alloc.getDynamicSizes();
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return alloca.getDynamicSizes();
  return cast<gpu::AllocOp>(op).getDynamicSizes();
}

/// The bytes of the static part of `type` (element size times its static
/// sizes), or nullopt if that is more than an index can count.
std::optional<int64_t> getStaticBytes(MemRefType type,
                                      const DataLayout &dataLayout) {
  std::optional<int64_t> bytes =
      static_cast<int64_t>(dataLayout.getTypeSize(type.getElementType()));
  for (int64_t dim : type.getShape()) {
    if (dim == 0)
      return 0; // no size can make it overflow
    if (!ShapedType::isDynamic(dim) && bytes)
      bytes = llvm::checkedMul<int64_t>(*bytes, dim);
  }
  return bytes;
}

class CheckAllocSizesPass
    : public impl::CheckAllocSizesBase<CheckAllocSizesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> allocations;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Kernels compiled for a GPU are no longer here; those of the host
      // backend are host functions by now, and checked as such.
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(op))
        allocations.push_back(op);
      return WalkResult::advance();
    });
    DataLayout dataLayout = DataLayout::closest(getOperation());
    for (Operation *op : allocations)
      if (failed(check(op, dataLayout)))
        return signalPassFailure();
  }

private:
  LogicalResult check(Operation *op, const DataLayout &dataLayout) {
    auto type = cast<MemRefType>(op->getResult(0).getType());
    ValueRange sizes = getDynamicSizes(op);
    std::optional<int64_t> staticBytes = getStaticBytes(type, dataLayout);
    if (sizes.empty() && staticBytes)
      return success();

    Location loc = op->getLoc();
    OpBuilder b(op);
    // Conditions over the dynamic sizes, null while there are none.
    auto both = [&](Value lhs, Value rhs) -> Value {
      return lhs ? arith::AndIOp::create(b, loc, lhs, rhs).getResult() : rhs;
    };
    auto either = [&](Value lhs, Value rhs) -> Value {
      return lhs ? arith::OrIOp::create(b, loc, lhs, rhs).getResult() : rhs;
    };
    Value zero, bytes, nonNegative, fits, empty;
    if (!sizes.empty()) {
      zero = arith::ConstantIndexOp::create(b, loc, 0);
      bytes = arith::ConstantIndexOp::create(b, loc, staticBytes.value_or(0));
    }
    for (Value size : sizes) {
      nonNegative = both(
          nonNegative,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size, zero));
      // A size of 0 makes 0 bytes, whatever the product of the others.
      empty = either(empty, arith::CmpIOp::create(
                                b, loc, arith::CmpIPredicate::eq, size, zero));
      // With both factors at least 0, the product fits if its high half is
      // 0 and its low half is not negative.
      auto product = arith::MulUIExtendedOp::create(b, loc, bytes, size);
      fits = both(fits, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              product.getHigh(), zero));
      fits = both(fits, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              product.getLow(), zero));
      bytes = product.getLow();
    }
    Value bad;
    if (!staticBytes && !empty) {
      bad = arith::ConstantIntOp::create(b, loc, 1, 1); // fails when it runs
    } else {
      // A static part too large fits only where a dynamic size is 0.
      Value ok = staticBytes ? both(nonNegative, either(fits, empty))
                             : both(nonNegative, empty);
      bad = arith::XOrIOp::create(b, loc, ok,
                                  arith::ConstantIntOp::create(b, loc, 1, 1));
    }

    // Every size, the static ones included, for the message.
    SmallVector<Value> allSizes = {bad};
    unsigned nextDynamic = 0;
    for (int64_t d = 0; d < type.getRank(); ++d)
      allSizes.push_back(type.isDynamicDim(d) ? sizes[nextDynamic++]
                                              : arith::ConstantIndexOp::create(
                                                    b, loc, type.getDimSize(d))
                                                    .getResult());
    allSizes.push_back(arith::ConstantIntOp::create(
        b, loc,
        static_cast<int64_t>(dataLayout.getTypeSize(type.getElementType())),
        64));
    allSizes.push_back(getConstantString(b, loc, getRuntimeLocation(op)));
    func::FuncOp report =
        getReportFunction(op->getParentOfType<ModuleOp>(), type.getRank());
    if (!report)
      return failure();
    func::CallOp::create(b, loc, report, allSizes);
    return success();
  }

  /// A private function (one per module and rank) that reports a bad allocation
  /// when its first argument is true: `(i1 bad, index size..., i64 element
  /// bytes, !llvm.ptr loc)`. The branch lives there, not at the
  /// allocation, whose region may have to stay one block (async.execute);
  /// LLVM inlines it.
  func::FuncOp getReportFunction(ModuleOp module, int64_t rank) {
    func::FuncOp &function = reportFunctions[{module, rank}];
    if (function)
      return function;
    MLIRContext *context = module.getContext();
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Location loc = module.getLoc();
    SmallVector<Type> inputs = {b.getI1Type()};
    inputs.append(rank, b.getIndexType());
    inputs.push_back(b.getI64Type());
    inputs.push_back(LLVM::LLVMPointerType::get(context));
    function = func::FuncOp::create(
        b, loc, "__gpu_runner_check_alloc_sizes_" + std::to_string(rank),
        FunctionType::get(context, inputs, {}));
    function.setPrivate();
    SymbolTable(module).insert(function); // renamed if the name is taken
    Block *entry = function.addEntryBlock();
    b.setInsertionPointToStart(entry);
    auto ifBad = scf::IfOp::create(b, loc, entry->getArgument(0),
                                   /*withElseRegion=*/false);
    func::ReturnOp::create(b, loc);
    OpBuilder then = ifBad.getThenBodyBuilder();
    if (failed(reportError(then, loc, entry->getArguments().drop_front())))
      return nullptr;
    return function;
  }

  /// Calls the runtime's report of a bad allocation with `arguments`: the
  /// sizes, the element's bytes and the op's loc string.
  LogicalResult reportError(OpBuilder &b, Location loc,
                            Block::BlockArgListType arguments) {
    Type i64 = b.getI64Type();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    auto constantI64 = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
    };
    ArrayRef<BlockArgument> sizes = arguments.drop_back(2);
    int64_t rank = sizes.size();
    Value array = LLVM::AllocaOp::create(
        b, loc, ptrType, i64, constantI64(std::max<int64_t>(rank, 1)));
    for (auto [d, size] : llvm::enumerate(sizes)) {
      Value slot =
          LLVM::GEPOp::create(b, loc, ptrType, i64, array,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(d)});
      LLVM::StoreOp::create(
          b, loc, arith::IndexCastOp::create(b, loc, i64, size), slot);
    }
    return createMgpuCall(b, loc, MgpuFunction::mgpuAllocSizeErrorAt,
                          {constantI64(rank), array,
                           arguments.drop_back()[rank], arguments.back()});
  }

  llvm::DenseMap<std::pair<Operation *, int64_t>, func::FuncOp> reportFunctions;
};

} // namespace
} // namespace gpu_runner
