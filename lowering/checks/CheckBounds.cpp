//===- CheckBounds.cpp - Run-time checks of kernels' loads and stores -----===//
//
// See the description of gpu-runner-check-bounds in Passes.td. The checks
// are written with gpu, memref, arith and func ops before the kernels are
// compiled for the host, so that the host kernel lowering gives them the
// right thread and block ids whether a kernel runs on fibers or as loops.
// An op's location travels as its loc string's address (CheckCalls.h).
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/checks/CheckCalls.h"
#include "lowering/runtime/MgpuCalls.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKBOUNDS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

constexpr StringLiteral kCheckFunction = "mgpuHostCheckAccessAt";
constexpr StringLiteral kBarrierFunction = "mgpuHostCheckBarrierAt";
constexpr StringLiteral kUnseenWritesFunction = "mgpuHostCheckUnseenWritesAt";
using MemoryKind = HostAccessMemory;

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
    // The functions with writes that the checks cannot follow.
    DenseSet<Operation *> unseenWriters;
    module.walk([&](Operation *op) {
      auto function = op->getParentOfType<FunctionOpInterface>();
      if (!function)
        return;
      if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
              memref::GenericAtomicRMWOp, gpu::SubgroupMmaLoadMatrixOp,
              gpu::SubgroupMmaStoreMatrixOp>(op) ||
          getVectorAccess(op))
        accesses.push_back(op);
      else if (writesUnseen(op, symbols))
        unseenWriters.insert(function);
    });
    // initcheck cannot follow those writes: for a kernel that makes them,
    // the memory it was given counts as written.
    if (!unseenWriters.empty())
      markUnseenWrites(module, symbols, unseenWriters);
    DataLayout dataLayout = DataLayout::closest(module);
    LocStrings locStrings(module, symbols);
    for (Operation *op : accesses)
      instrument(op, check, locStrings, dataLayout);
    if (markBarriers)
      markBarrierIntervals(module, symbols);
  }

private:
  /// Appends the thread's ids (x, y, z) and, `withBlock`, its block's.
  static void appendIds(OpBuilder &b, Location loc, SmallVectorImpl<Value> &ids,
                        bool withBlock) {
    for (gpu::Dimension dimension :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      ids.push_back(gpu::ThreadIdOp::create(b, loc, dimension));
    if (!withBlock)
      return;
    for (gpu::Dimension dimension :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      ids.push_back(gpu::BlockIdOp::create(b, loc, dimension));
  }

  /// Whether `op`, not instrumented, may write memory that initcheck
  /// follows: it writes a memref or pointer operand, or it is a call of a
  /// function the module does not define, or inline assembly.
  static bool writesUnseen(Operation *op, SymbolTable &symbols) {
    if (isa<LLVM::InlineAsmOp>(op))
      return true;
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      if (!callee)
        return true;
      Operation *function = symbols.lookup(callee.getRootReference());
      if (!function)
        return true;
      auto interface = dyn_cast<FunctionOpInterface>(function);
      return interface && interface.isExternal() &&
             !interface.getName().starts_with("mgpuHost");
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    return llvm::any_of(instances, [](MemoryEffects::EffectInstance &effect) {
      return isa<MemoryEffects::Write>(effect.getEffect()) &&
             effect.getValue() &&
             isa<BaseMemRefType, LLVM::LLVMPointerType>(
                 effect.getValue().getType());
    });
  }

  /// Whether `function`, or a function of the module it calls, is one of
  /// `writers`.
  static bool reachesWriter(Operation *function, SymbolTable &symbols,
                            const DenseSet<Operation *> &writers,
                            DenseSet<Operation *> &visited) {
    if (!visited.insert(function).second)
      return false;
    if (writers.contains(function))
      return true;
    WalkResult result = function->walk([&](CallOpInterface call) {
      auto callee =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      Operation *target =
          callee ? symbols.lookup(callee.getRootReference()) : nullptr;
      if (target && reachesWriter(target, symbols, writers, visited))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return result.wasInterrupted();
  }

  /// At the entry of each kernel that makes writes the checks cannot follow
  /// (itself or a function it calls), calls mgpuHostCheckUnseenWritesAt with
  /// each memref argument's address and span (once with none when it has
  /// no memref argument).
  void markUnseenWrites(gpu::GPUModuleOp module, SymbolTable &symbols,
                        const DenseSet<Operation *> &writers) {
    MLIRContext *context = module.getContext();
    Type index = IndexType::get(context);
    auto type = FunctionType::get(context, SmallVector<Type>(8, index), {});
    func::FuncOp marker = gpu_runner::getCheckFunction(
        module, symbols, kUnseenWritesFunction, type, "--check=initcheck");
    if (!marker)
      return signalPassFailure();
    DataLayout dataLayout = DataLayout::closest(module);
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      DenseSet<Operation *> visited;
      if (!kernel.isKernel() ||
          !reachesWriter(kernel, symbols, writers, visited))
        continue;
      OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
      Location loc = kernel.getLoc();
      SmallVector<Value> ids;
      appendIds(b, loc, ids, /*withBlock=*/true);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      bool any = false;
      for (BlockArgument argument : kernel.getArguments()) {
        auto memrefType = dyn_cast<MemRefType>(argument.getType());
        if (!memrefType || !memrefType.isStrided() ||
            !memrefType.getElementType().isIntOrIndexOrFloat())
          continue;
        auto [address, span] =
            getSpan(b, loc, argument, memrefType, dataLayout);
        SmallVector<Value> args = {address, span};
        args.append(ids);
        func::CallOp::create(b, loc, marker, args);
        any = true;
      }
      if (!any) {
        SmallVector<Value> args = {zero, zero};
        args.append(ids);
        func::CallOp::create(b, loc, marker, args);
      }
    }
  }

  /// The address of a memref's first element and the bytes from it to its
  /// last one (0 for an empty memref).
  static std::pair<Value, Value> getSpan(OpBuilder &b, Location loc,
                                         Value memref, MemRefType type,
                                         const DataLayout &dataLayout) {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    Value aligned =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    Value elementBytes = arith::ConstantIndexOp::create(
        b, loc,
        static_cast<int64_t>(dataLayout.getTypeSize(type.getElementType())));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value last = zero;
    Value empty = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value size = metadata.getSizes()[d];
      Value stride = metadata.getStrides()[d];
      empty = arith::OrIOp::create(
          b, loc, empty,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, size, zero));
      Value reach = arith::MulIOp::create(
          b, loc, arith::SubIOp::create(b, loc, size, one), stride);
      last = arith::AddIOp::create(b, loc, last, reach);
    }
    Value elements = arith::AddIOp::create(b, loc, last, one);
    Value span = arith::SelectOp::create(
        b, loc, empty, zero,
        arith::MulIOp::create(b, loc, elements, elementBytes));
    Value address = arith::AddIOp::create(
        b, loc, aligned,
        arith::MulIOp::create(b, loc, metadata.getOffset(), elementBytes));
    return {address, span};
  }

  /// Calls mgpuHostCheckBarrierAt with the thread's ids after each
  /// gpu.barrier of the module.
  void markBarrierIntervals(gpu::GPUModuleOp module, SymbolTable &symbols) {
    SmallVector<gpu::BarrierOp> barriers;
    module.walk([&](gpu::BarrierOp barrier) { barriers.push_back(barrier); });
    if (barriers.empty())
      return;
    Type index = IndexType::get(module.getContext());
    auto type =
        FunctionType::get(module.getContext(), {index, index, index}, {});
    func::FuncOp marker = gpu_runner::getCheckFunction(
        module, symbols, kBarrierFunction, type, "--check=racecheck");
    if (!marker)
      return signalPassFailure();
    for (gpu::BarrierOp barrier : barriers) {
      OpBuilder b(barrier->getContext());
      b.setInsertionPointAfter(barrier);
      Location loc = barrier.getLoc();
      SmallVector<Value> ids;
      appendIds(b, loc, ids, /*withBlock=*/false);
      func::CallOp::create(b, loc, marker, ids);
    }
  }

  /// Declares the runtime check in the module, or finds its declaration.
  func::FuncOp getCheckFunction(gpu::GPUModuleOp module, SymbolTable &symbols) {
    MLIRContext *context = module.getContext();
    Type index = IndexType::get(context);
    Type i32 = IntegerType::get(context, 32);
    SmallVector<Type> inputs = {index, index, i32, i32, i32, index, index};
    inputs.append(6, index); // thread and block ids
    inputs.push_back(index); // the loc string's address
    auto type = FunctionType::get(context, inputs, {});
    return gpu_runner::getCheckFunction(module, symbols, kCheckFunction, type,
                                        "--check=memcheck");
  }

  void instrument(Operation *op, func::FuncOp check, LocStrings &locStrings,
                  const DataLayout &dataLayout) {
    Value memref;
    ValueRange indices;
    bool isStore = false;
    bool isAtomic = isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op);
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
    } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
      memref = load.getBase();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      memref = store.getBase();
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
    // A vector load or store reaches its elements from the indexed one on,
    // in the memref's innermost dimension.
    if (auto vector = getVectorAccess(op))
      extent = vector.getNumElements();
    MemoryKind kind = getMemoryKind(memref);
    int64_t alignment = getRequiredAlignment(op, elementBytes, kind);
    Value bytes = arith::ConstantIndexOp::create(b, loc, elementBytes);
    Value address = arith::AddIOp::create(
        b, loc, aligned, arith::MulIOp::create(b, loc, linear, bytes));
    if (extent != 1)
      bytes = arith::ConstantIndexOp::create(b, loc, elementBytes * extent);

    SmallVector<Value> args = {
        address,
        bytes,
        arith::ConstantIntOp::create(b, loc, alignment, 32),
        arith::ConstantIntOp::create(
            b, loc,
            int64_t(isStore) | int64_t(kind) << 1 | int64_t(isAtomic) << 4, 32),
        badDimension,
        badIndex,
        badSize};
    appendIds(b, loc, args, /*withBlock=*/true);
    args.push_back(locStrings.get(b, loc, getRuntimeLocation(op)));
    func::CallOp::create(b, loc, check, args);
  }

  /// What memory a memref of a kernel is, as far as the IR says, for the
  /// runtime to check the address against (HostKernelAbi.def): its memory
  /// space, else what it is a view of.
  static MemoryKind getMemoryKind(Value memref) {
    while (true) {
      auto type = cast<BaseMemRefType>(memref.getType());
      if (auto space =
              dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())) {
        if (space.getValue() == gpu::AddressSpace::Workgroup)
          return MemoryKind::Workgroup;
        if (space.getValue() == gpu::AddressSpace::Private)
          return MemoryKind::Private;
      }
      // The NVVM numbers, which kernels written for CUDA use.
      if (auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace())) {
        if (space.getInt() == 3)
          return MemoryKind::Workgroup;
        if (space.getInt() == 5)
          return MemoryKind::Private;
      }
      if (auto argument = dyn_cast<BlockArgument>(memref)) {
        // A kernel's arguments come from the host: they must be memory a GPU
        // reaches. Other functions' arguments may be anything the kernel
        // has.
        auto function =
            dyn_cast<gpu::GPUFuncOp>(argument.getOwner()->getParentOp());
        if (function && function.isKernel() &&
            argument.getOwner()->isEntryBlock() &&
            argument.getArgNumber() < function.getNumArguments())
          return MemoryKind::Global;
        return MemoryKind::Unknown;
      }
      Operation *producer = memref.getDefiningOp();
      if (isa<memref::AllocaOp>(producer))
        return MemoryKind::Private;
      if (isa<memref::GetGlobalOp>(producer))
        return MemoryKind::Constant;
      if (isa<gpu::DynamicSharedMemoryOp>(producer))
        return MemoryKind::Workgroup;
      auto view = dyn_cast<ViewLikeOpInterface>(producer);
      if (!view || view.getViewSource() == memref)
        return MemoryKind::Unknown;
      memref = view.getViewSource();
    }
  }

  /// The alignment a GPU requires of the access's address: the natural
  /// alignment of its element, as PTX's ld and st require ("the address
  /// must be naturally aligned to a multiple of the access size"), vectors
  /// included, up to the 16 bytes of the widest access; and for a warp
  /// matrix in global memory the 256 bits CUDA's load_matrix_sync and
  /// store_matrix_sync require of `mptr`.
  static int64_t getRequiredAlignment(Operation *op, int64_t elementBytes,
                                      MemoryKind kind) {
    if (isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp>(op) &&
        kind == MemoryKind::Global)
      return 32;
    int64_t alignment = 1;
    while (alignment < 16 && elementBytes % (alignment * 2) == 0)
      alignment *= 2;
    return alignment;
  }

  /// The vector type of a vector load or store of one dimension; null for
  /// other ops (and for scalable vectors, whose size is not known here).
  static VectorType getVectorAccess(Operation *op) {
    VectorType type;
    Value base;
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      type = load.getVectorType();
      base = load.getBase();
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      type = store.getVectorType();
      base = store.getBase();
    }
    if (!type || type.isScalable() || type.getRank() != 1 ||
        !cast<MemRefType>(base.getType())
             .getElementType()
             .isIntOrIndexOrFloat())
      return VectorType();
    return type;
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
};

} // namespace
} // namespace gpu_runner
