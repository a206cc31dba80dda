//===- BarrierSplitting.cpp - Kernels with barriers as loops over threads -===//

#include "lowering/BarrierSplitting.h"

#include "lowering/MgpuCalls.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace gpu_runner {

class BarrierSplitter::Impl {
public:
  Impl(func::FuncOp thread, const llvm::DenseSet<StringAttr> &synchronizing)
      : thread(thread), context(thread.getArgument(0)),
        synchronizing(synchronizing) {}

  bool canSplit();
  void emit(OpBuilder &b, IRMapping map, ValueRange blockSize);

private:
  bool isRuntimeCall(Operation *op, MgpuFunction fn) const;
  bool isBarrier(Operation *op) const {
    return isRuntimeCall(op, MgpuFunction::mgpuHostBarrierAt);
  }
  bool containsBarrier(Operation *op) const;
  bool isUniformOp(Operation *op) const;
  bool allUniform(ValueRange values) const {
    return llvm::all_of(values, [&](Value v) { return uniform.contains(v); });
  }
  bool analyzeBlock(Block &block);
  bool analyzeSyncOp(Operation *op);
  bool isSpillable(Type type) const;

  void emitBlock(Block &block, OpBuilder &b, IRMapping &map);
  void emitSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                   const IRMapping &map);
  void emitSyncOp(Operation *op, OpBuilder &b, IRMapping &map);

  func::FuncOp thread;
  Value context;
  /// Functions that reach a barrier or a shuffle.
  const llvm::DenseSet<StringAttr> &synchronizing;
  /// Values the same for every thread of a block.
  llvm::DenseSet<Value> uniform;
  /// Ops computed once for the block, outside the thread loops.
  llvm::DenseSet<Operation *> uniformOps;
  /// Ops with regions reached by every thread that contain barriers.
  llvm::DenseSet<Operation *> syncOps;
  /// Per-thread values used after the piece that computes them.
  llvm::SetVector<Value> crossing;

  // Emission state.
  Value threadIds[3];
  Value blockSize[3];
  Value threadCount;
  llvm::DenseMap<Value, Value> buffers;
};

bool BarrierSplitter::Impl::isRuntimeCall(Operation *op,
                                          MgpuFunction fn) const {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() == getMgpuFunctionName(fn);
}

bool BarrierSplitter::Impl::containsBarrier(Operation *op) const {
  return op
      ->walk([&](Operation *nested) {
        return isBarrier(nested) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

bool BarrierSplitter::Impl::isUniformOp(Operation *op) const {
  if (op->getNumRegions() != 0 || !allUniform(op->getOperands()))
    return false;
  if (isMemoryEffectFree(op))
    return true;
  // The block's ids and sizes, read from the context, are the same for all
  // its threads; the thread ids (slots 0 to 2) are not.
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    if (auto slot = load.getAddr().getDefiningOp<LLVM::GEPOp>())
      if (slot.getBase() == context &&
          slot.getDynamicIndices().empty() &&
          slot.getRawConstantIndices().size() == 1)
        return slot.getRawConstantIndices()[0] >= kContextBlockId;
  return false;
}

bool BarrierSplitter::Impl::isSpillable(Type type) const {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return type.isIntOrIndexOrFloat();
}

bool BarrierSplitter::Impl::analyzeSyncOp(Operation *op) {
  if (!allUniform(op->getOperands()))
    return false;
  auto analyzeRegion = [&](Region &region) {
    if (!region.hasOneBlock())
      return false;
    Block &block = region.front();
    for (BlockArgument argument : block.getArguments())
      uniform.insert(argument);
    return analyzeBlock(block) &&
           allUniform(block.getTerminator()->getOperands());
  };
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (!analyzeRegion(loop.getRegion()))
      return false;
  } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (!analyzeRegion(branch.getThenRegion()) ||
        (!branch.getElseRegion().empty() &&
         !analyzeRegion(branch.getElseRegion())))
      return false;
  } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    // The condition is evaluated once for the block: all of it must be
    // uniform.
    Block &before = loop.getBefore().front();
    for (BlockArgument argument : before.getArguments())
      uniform.insert(argument);
    for (Operation &nested : before.without_terminator()) {
      if (!isUniformOp(&nested))
        return false;
      uniformOps.insert(&nested);
      for (Value result : nested.getResults())
        uniform.insert(result);
    }
    if (!allUniform(before.getTerminator()->getOperands()) ||
        !analyzeRegion(loop.getAfter()))
      return false;
  } else {
    return false;
  }
  for (Value result : op->getResults())
    uniform.insert(result);
  return true;
}

bool BarrierSplitter::Impl::analyzeBlock(Block &block) {
  // Which piece of the block each per-thread op belongs to: barriers and
  // ops that contain barriers end pieces.
  llvm::DenseMap<Operation *, unsigned> piece;
  unsigned current = 0;
  for (Operation &op : block.without_terminator()) {
    if (isRuntimeCall(&op, MgpuFunction::mgpuHostShuffleAt))
      return false;
    if (isBarrier(&op)) {
      ++current;
      continue;
    }
    if (containsBarrier(&op)) {
      if (!analyzeSyncOp(&op))
        return false;
      syncOps.insert(&op);
      ++current;
      continue;
    }
    // Shuffles, and calls of functions with barriers or shuffles, need the
    // threads to run together.
    bool synchronizes =
        op.walk([&](Operation *nested) {
            auto call = dyn_cast<func::CallOp>(nested);
            bool synchronizingCall =
                call && synchronizing.contains(call.getCalleeAttr().getAttr());
            return synchronizingCall ||
                           isRuntimeCall(nested,
                                         MgpuFunction::mgpuHostShuffleAt)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted();
    if (synchronizes)
      return false;
    if (isUniformOp(&op)) {
      uniformOps.insert(&op);
      for (Value result : op.getResults())
        uniform.insert(result);
      continue;
    }
    piece[&op] = current;
  }

  // A per-thread value used in another piece, or inside an op with
  // barriers, is kept in a buffer.
  for (auto [op, index] : piece) {
    for (Value result : op->getResults()) {
      for (Operation *user : result.getUsers()) {
        Operation *ancestor = block.findAncestorOpInBlock(*user);
        auto userPiece = piece.find(ancestor);
        if (userPiece != piece.end() && userPiece->second == index)
          continue;
        // A uniform region cannot yield a per-thread value, and only
        // scalars and vectors fit in a buffer.
        if (ancestor == block.getTerminator() ||
            !isSpillable(result.getType()))
          return false;
        crossing.insert(result);
        break;
      }
    }
  }
  return true;
}

bool BarrierSplitter::Impl::canSplit() {
  Region &body = thread.getBody();
  if (!body.hasOneBlock())
    return false;
  for (BlockArgument argument : body.getArguments())
    if (argument.getArgNumber() < 1 || argument.getArgNumber() > 3)
      uniform.insert(argument);
  return analyzeBlock(body.front());
}

void BarrierSplitter::Impl::emitSegment(ArrayRef<Operation *> segment,
                                        OpBuilder &b, const IRMapping &map) {
  if (segment.empty())
    return;
  Location loc = segment.front()->getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto z = scf::ForOp::create(b, loc, zero, blockSize[2], one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(z.getBody());
  auto y = scf::ForOp::create(b, loc, zero, blockSize[1], one);
  b.setInsertionPointToStart(y.getBody());
  auto x = scf::ForOp::create(b, loc, zero, blockSize[0], one);
  b.setInsertionPointToStart(x.getBody());

  IRMapping threadMap = map;
  Value ids[3] = {x.getInductionVar(), y.getInductionVar(),
                  z.getInductionVar()};
  for (int d = 0; d < 3; ++d)
    threadMap.map(threadIds[d], ids[d]);
  Value linear = arith::AddIOp::create(
      b, loc, ids[0],
      arith::MulIOp::create(
          b, loc, blockSize[0],
          arith::AddIOp::create(
              b, loc, ids[1],
              arith::MulIOp::create(b, loc, blockSize[1], ids[2]))));

  // Per-thread values of earlier pieces come from their buffers.
  llvm::DenseSet<Value> definedHere;
  for (Operation *op : segment)
    op->walk([&](Operation *nested) {
      for (Value result : nested->getResults())
        definedHere.insert(result);
    });
  for (Operation *op : segment)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (buffers.count(operand) && !definedHere.contains(operand) &&
            !threadMap.contains(operand))
          threadMap.map(operand,
                        memref::LoadOp::create(b, loc, buffers[operand],
                                               ValueRange{linear}));
    });

  for (Operation *op : segment)
    b.clone(*op, threadMap);

  // And the values of this piece later pieces use go to theirs.
  for (Operation *op : segment)
    for (Value result : op->getResults()) {
      if (!crossing.contains(result))
        continue;
      Value &buffer = buffers[result];
      if (!buffer) {
        // At the top of the block function, before any loop uses it.
        OpBuilder::InsertionGuard bufferGuard(b);
        b.setInsertionPointAfterValue(threadCount);
        buffer = memref::AllocaOp::create(
            b, loc,
            MemRefType::get({ShapedType::kDynamic}, result.getType()),
            ValueRange{threadCount});
      }
      memref::StoreOp::create(b, loc, threadMap.lookup(result), buffer,
                              ValueRange{linear});
    }
}

void BarrierSplitter::Impl::emitSyncOp(Operation *op, OpBuilder &b,
                                       IRMapping &map) {
  Location loc = op->getLoc();
  auto mapped = [&](ValueRange values) {
    return llvm::to_vector(llvm::map_range(
        values, [&](Value v) { return map.lookupOrDefault(v); }));
  };
  auto emitRegion = [&](Block &block, OpBuilder &nb) {
    emitBlock(block, nb, map);
    Operation *terminator = block.getTerminator();
    nb.clone(*terminator, map);
  };

  Operation *result = nullptr;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    result = scf::ForOp::create(
        b, loc, map.lookupOrDefault(loop.getLowerBound()),
        map.lookupOrDefault(loop.getUpperBound()),
        map.lookupOrDefault(loop.getStep()), mapped(loop.getInitArgs()),
        [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
          map.map(loop.getInductionVar(), iv);
          map.map(loop.getRegionIterArgs(), args);
          emitRegion(*loop.getBody(), nb);
        });
  } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
    auto thenBuilder = [&](OpBuilder &nb, Location) {
      emitRegion(branch.getThenRegion().front(), nb);
    };
    if (branch.getElseRegion().empty())
      result = scf::IfOp::create(b, loc,
                                 map.lookupOrDefault(branch.getCondition()),
                                 thenBuilder);
    else
      result = scf::IfOp::create(
          b, loc, map.lookupOrDefault(branch.getCondition()), thenBuilder,
          [&](OpBuilder &nb, Location) {
            emitRegion(branch.getElseRegion().front(), nb);
          });
  } else {
    auto loop = cast<scf::WhileOp>(op);
    result = scf::WhileOp::create(
        b, loc, loop.getResultTypes(), mapped(loop.getInits()),
        [&](OpBuilder &nb, Location, ValueRange args) {
          Block &before = loop.getBefore().front();
          map.map(before.getArguments(), args);
          for (Operation &nested : before)
            nb.clone(nested, map);
        },
        [&](OpBuilder &nb, Location, ValueRange args) {
          map.map(loop.getAfter().front().getArguments(), args);
          emitRegion(loop.getAfter().front(), nb);
        });
  }
  map.map(op->getResults(), result->getResults());
}

void BarrierSplitter::Impl::emitBlock(Block &block, OpBuilder &b,
                                      IRMapping &map) {
  SmallVector<Operation *> segment;
  for (Operation &op : block.without_terminator()) {
    if (isBarrier(&op)) {
      emitSegment(segment, b, map);
      segment.clear();
    } else if (syncOps.contains(&op)) {
      emitSegment(segment, b, map);
      segment.clear();
      emitSyncOp(&op, b, map);
    } else if (uniformOps.contains(&op)) {
      b.clone(op, map);
    } else {
      segment.push_back(&op);
    }
  }
  emitSegment(segment, b, map);
}

void BarrierSplitter::Impl::emit(OpBuilder &b, IRMapping map,
                                 ValueRange size) {
  Location loc = thread.getLoc();
  for (int d = 0; d < 3; ++d) {
    threadIds[d] = thread.getArgument(1 + d);
    blockSize[d] = size[d];
  }
  threadCount = arith::MulIOp::create(
      b, loc, size[0], arith::MulIOp::create(b, loc, size[1], size[2]));
  emitBlock(thread.getBody().front(), b, map);
}

BarrierSplitter::BarrierSplitter(
    func::FuncOp thread, const llvm::DenseSet<StringAttr> &synchronizing)
    : impl(std::make_unique<Impl>(thread, synchronizing)) {}

BarrierSplitter::~BarrierSplitter() = default;

bool BarrierSplitter::canSplit() { return impl->canSplit(); }

void BarrierSplitter::emit(OpBuilder &b, const IRMapping &blockArguments,
                           ValueRange blockSize) {
  impl->emit(b, blockArguments, blockSize);
}

} // namespace gpu_runner
