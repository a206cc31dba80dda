//===- CheckBounds.cpp - Run-time checks of kernels' loads and stores -----===//
//
// See the description of gpu-runner-check-bounds in Passes.td. The checks
// are written with gpu, memref, arith and func ops before the kernels are
// compiled for the host, so that the host kernel lowering gives them the
// right thread and block ids whether a kernel runs on fibers or as loops.
// An op's location travels as the address of a memref.global holding its
// loc string, the one kind of constant data a kernel module may hold.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/StringMap.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKBOUNDS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

constexpr StringLiteral kCheckFunction = "mgpuHostCheckAccessAt";

class CheckBoundsPass : public impl::CheckBoundsBase<CheckBoundsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable symbols(module);
    func::FuncOp check = getCheckFunction(module, symbols);
    if (!check)
      return signalPassFailure();

    SmallVector<Operation *> accesses;
    module.walk([&](Operation *op) {
      if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
              memref::GenericAtomicRMWOp, gpu::SubgroupMmaLoadMatrixOp,
              gpu::SubgroupMmaStoreMatrixOp>(op) &&
          op->getParentOfType<FunctionOpInterface>() &&
          op->getParentOfType<FunctionOpInterface>() != check)
        accesses.push_back(op);
    });
    DataLayout dataLayout = DataLayout::closest(module);
    for (Operation *op : accesses)
      instrument(op, check, symbols, dataLayout);
  }

private:
  /// Declares the runtime check in the module, or finds its declaration.
  func::FuncOp getCheckFunction(gpu::GPUModuleOp module, SymbolTable &symbols) {
    MLIRContext *context = module.getContext();
    Type index = IndexType::get(context);
    Type i32 = IntegerType::get(context, 32);
    SmallVector<Type> inputs = {index, index, i32, i32, index, index};
    inputs.append(6, index); // thread and block ids
    inputs.push_back(index); // the loc string's address
    auto type = FunctionType::get(context, inputs, {});
    if (Operation *existing = symbols.lookup(kCheckFunction)) {
      auto function = dyn_cast<func::FuncOp>(existing);
      if (function && function.getFunctionType() == type)
        return function;
      existing->emitError() << "'" << kCheckFunction
                            << "' is gpu-runner's own runtime function; "
                               "--check-bounds cannot use this symbol";
      return nullptr;
    }
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto function =
        func::FuncOp::create(b, module.getLoc(), kCheckFunction, type);
    function.setPrivate();
    symbols.insert(function);
    return function;
  }

  /// The address of a constant holding `text`, NUL-terminated, one per
  /// distinct text.
  Value getLocString(OpBuilder &b, Location loc, StringRef text,
                     SymbolTable &symbols) {
    auto it = locGlobals.find(text);
    memref::GlobalOp global;
    if (it != locGlobals.end()) {
      global = it->second;
    } else {
      SmallVector<int8_t> bytes(text.begin(), text.end());
      bytes.push_back(0);
      auto type =
          MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
      auto tensorType = RankedTensorType::get(type.getShape(), b.getI8Type());
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(getOperation().getBody());
      global = memref::GlobalOp::create(
          b, loc, "__gpu_runner_check_loc", b.getStringAttr("private"), type,
          DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(bytes)),
          /*constant=*/true, /*alignment=*/nullptr);
      symbols.insert(global); // renames it to a unique name
      locGlobals[text] = global;
    }
    Value memref = memref::GetGlobalOp::create(b, loc, global.getType(),
                                               global.getSymName());
    return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  }

  void instrument(Operation *op, func::FuncOp check, SymbolTable &symbols,
                  const DataLayout &dataLayout) {
    Value memref;
    ValueRange indices;
    bool isStore = false;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
      isStore = true;
    } else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
      memref = atomic.getMemref();
      indices = atomic.getIndices();
      isStore = true;
    } else if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op)) {
      memref = atomic.getMemref();
      indices = atomic.getIndices();
      isStore = true;
    } else if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op)) {
      memref = load.getSrcMemref();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op)) {
      memref = store.getDstMemref();
      indices = store.getIndices();
      isStore = true;
    }
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || !type.isStrided() ||
        static_cast<int64_t>(indices.size()) != type.getRank())
      return;

    Location loc = op->getLoc();
    OpBuilder b(op);
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    Value aligned =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    int64_t elementBytes =
        static_cast<int64_t>(dataLayout.getTypeSize(type.getElementType()));

    // The element's offset, and the first index outside the shape.
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value linear = metadata.getOffset();
    Value badDimension = arith::ConstantIntOp::create(b, loc, -1, 32);
    Value badIndex = zero, badSize = zero;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      Value idx = indices[d];
      Value size = metadata.getSizes()[d];
      Value stride = metadata.getStrides()[d];
      linear = arith::AddIOp::create(
          b, loc, linear, arith::MulIOp::create(b, loc, idx, stride));
      Value negative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx, zero);
      Value tooLarge =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, idx, size);
      Value bad = arith::OrIOp::create(b, loc, negative, tooLarge);
      badDimension = arith::SelectOp::create(
          b, loc, bad, arith::ConstantIntOp::create(b, loc, d, 32),
          badDimension);
      badIndex = arith::SelectOp::create(b, loc, bad, idx, badIndex);
      badSize = arith::SelectOp::create(b, loc, bad, size, badSize);
    }
    // A matrix load or store checks, from its first element, the elements
    // up to its last one (the last of its rows, or of its columns when
    // transposed, leadDimension elements apart): every lane checks the
    // whole matrix.
    int64_t extent = 1;
    if (auto [matrix, lead, transpose] = getMatrixAccess(op); matrix) {
      int64_t rows = matrix.getShape()[0], columns = matrix.getShape()[1];
      if (transpose)
        std::swap(rows, columns);
      extent = (rows - 1) * lead + columns;
    }
    Value bytes = arith::ConstantIndexOp::create(b, loc, elementBytes);
    Value address = arith::AddIOp::create(
        b, loc, aligned, arith::MulIOp::create(b, loc, linear, bytes));
    if (extent != 1)
      bytes = arith::ConstantIndexOp::create(b, loc, elementBytes * extent);

    SmallVector<Value> args = {
        address,
        bytes,
        arith::ConstantIntOp::create(b, loc, isStore, 32),
        badDimension,
        badIndex,
        badSize};
    for (gpu::Dimension dimension :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      args.push_back(gpu::ThreadIdOp::create(b, loc, dimension));
    for (gpu::Dimension dimension :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      args.push_back(gpu::BlockIdOp::create(b, loc, dimension));
    args.push_back(getLocString(b, loc, getRuntimeLocation(op), symbols));
    func::CallOp::create(b, loc, check, args);
  }

  /// The matrix type, leading dimension and transpose flag of a matrix
  /// load or store; a null type for other ops.
  static std::tuple<gpu::MMAMatrixType, int64_t, bool>
  getMatrixAccess(Operation *op) {
    if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
      return {cast<gpu::MMAMatrixType>(load.getRes().getType()),
              load.getLeadDimension().getSExtValue(),
              load.getTransposeAttr() != nullptr};
    if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
      return {cast<gpu::MMAMatrixType>(store.getSrc().getType()),
              store.getLeadDimension().getSExtValue(),
              store.getTransposeAttr() != nullptr};
    return {};
  }

  llvm::StringMap<memref::GlobalOp> locGlobals;
};

} // namespace
} // namespace gpu_runner
