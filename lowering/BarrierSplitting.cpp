//===- BarrierSplitting.cpp - Kernels with barriers as loops over threads -===//
//
// Two steps. The analysis finds the values that are the same for every
// thread of a block (uniform), checks that every barrier and lane exchange
// (shuffle or broadcast) is reached uniformly, and cuts each block of ops
// into pieces at barriers, at exchanges and at the ops that contain them
// ("sync ops"). The emission writes the pieces as loops over the threads,
// runs the sync ops once for the block, and keeps per-thread values that
// cross a cut in buffers of one element per thread. An exchange starts the
// piece after its cut: by then every lane's value is in its buffer, and each
// thread reads its source lane's there.
//
//===----------------------------------------------------------------------===//

#include "lowering/BarrierSplitting.h"

#include "lowering/MgpuCalls.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>

using namespace mlir;

namespace gpu_runner {

namespace {
// The operands of mgpuHostShuffleAt (context, value, source lane, width,
// location) and mgpuHostBroadcastAt (context, value, source lane, location).
constexpr unsigned kExchangeValueOperand = 1;
constexpr unsigned kExchangeLaneOperand = 2;
constexpr unsigned kShuffleWidthOperand = 3;
} // namespace

class BarrierSplitter::KernelPieces {
public:
  KernelPieces(func::FuncOp thread,
               const llvm::DenseSet<StringAttr> &synchronizing)
      : thread(thread), context(thread.getArgument(0)),
        synchronizing(synchronizing) {}

  bool canSplit();
  void emit(OpBuilder &b, IRMapping map, ValueRange blockSize);

private:
  // Analysis.
  bool isRuntimeCall(Operation *op, MgpuFunction fn) const;
  bool isBarrier(Operation *op) const {
    return isRuntimeCall(op, MgpuFunction::mgpuHostBarrierAt);
  }
  bool isShuffle(Operation *op) const {
    return isRuntimeCall(op, MgpuFunction::mgpuHostShuffleAt);
  }
  bool isBroadcast(Operation *op) const {
    return isRuntimeCall(op, MgpuFunction::mgpuHostBroadcastAt);
  }
  bool isExchange(Operation *op) const {
    return isShuffle(op) || isBroadcast(op);
  }
  bool containsCut(Operation *op) const;
  static Value getExchangedValue(Operation *op);
  bool canExchangeInLoops(Operation *op) const;
  bool synchronizes(Operation *op) const;
  bool isUniform(Value value) const { return !perThread.contains(value); }
  bool allUniform(ValueRange values) const {
    return llvm::all_of(values, [&](Value v) { return isUniform(v); });
  }
  bool computesUniformly(Operation *op) const;
  void findPerThreadValues();
  bool markPerThread(ValueRange values);
  bool analyzeBlock(Block &block);
  bool analyzeSyncOp(Operation *op);
  bool isThreadId(Value value) const;
  bool isRecomputable(Value value, unsigned depth = 0) const;
  static bool isSpillable(Type type);

  // Emission.
  Value getBuffer(Value value, Location loc);
  Value emitExchange(Operation *op, OpBuilder &b, const IRMapping &threadMap,
                     Value linear);
  Value recompute(Value value, OpBuilder &b, IRMapping &threadMap);
  template <typename Fn>
  void emitThreadLoop(OpBuilder &b, Location loc, Fn body,
                      Value xBound = Value());
  Operation *findThreadXBound(ArrayRef<Operation *> segment) const;
  void emitBlock(Block &block, OpBuilder &b, IRMapping &map);
  void emitSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                   const IRMapping &map);
  void emitSyncOp(Operation *op, OpBuilder &b, IRMapping &map);
  void emitStorePerThread(OpBuilder &b, Location loc, ValueRange targets,
                          ValueRange values, const IRMapping &map);

  func::FuncOp thread;
  Value context;
  /// Functions that reach a barrier or a shuffle.
  const llvm::DenseSet<StringAttr> &synchronizing;

  /// Values that may differ between the threads of a block.
  llvm::DenseSet<Value> perThread;
  /// Ops computed once for the block, outside the thread loops.
  llvm::DenseSet<Operation *> uniformOps;
  /// Ops with regions that contain barriers or exchanges, run once for the
  /// block.
  llvm::DenseSet<Operation *> syncOps;
  /// Shuffles and broadcasts, each the first op of a piece.
  llvm::SetVector<Operation *> exchanges;
  /// The per-thread values they move, whose buffers have a subgroup's worth
  /// of elements on either side (a subview of a larger alloca).
  llvm::DenseSet<Value> exchanged;
  /// Per-thread values kept in buffers: those used past the piece that
  /// computes them, and the per-thread values sync ops carry or yield.
  llvm::SetVector<Value> buffered;
  /// Per-thread values used past the piece that computes them that each
  /// piece computes again instead, from the thread ids and uniform values:
  /// a lane id or a shuffle's source lane costs less to compute than to
  /// store and load.
  llvm::DenseSet<Value> recomputed;
  /// What isRecomputable() found, by value.
  mutable llvm::DenseMap<Value, bool> recomputable;

  // Emission state.
  Value threadIds[3];
  Value blockSize[3];
  Value threadCount;
  /// The buffer of each buffered value; a sync op's per-thread results share
  /// the buffers of what it carries.
  llvm::DenseMap<Value, Value> buffers;
};

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

bool BarrierSplitter::KernelPieces::isRuntimeCall(Operation *op,
                                                  MgpuFunction fn) const {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() == getMgpuFunctionName(fn);
}

bool BarrierSplitter::KernelPieces::containsCut(Operation *op) const {
  return op
      ->walk([&](Operation *nested) {
        return isBarrier(nested) || isExchange(nested) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The value an exchange moves, before the lowering widened it to the
/// runtime call's i64: its buffer and the loads from it are no wider.
Value BarrierSplitter::KernelPieces::getExchangedValue(Operation *op) {
  Value value = op->getOperand(kExchangeValueOperand);
  if (auto widened = value.getDefiningOp<arith::ExtUIOp>())
    return widened.getIn();
  return value;
}

/// A shuffle runs in the loops if its width is a constant the runtime would
/// accept (it reports others, on fibers); a broadcast always does.
bool BarrierSplitter::KernelPieces::canExchangeInLoops(Operation *op) const {
  if (!isShuffle(op))
    return true;
  APInt width;
  return matchPattern(op->getOperand(kShuffleWidthOperand),
                      m_ConstantInt(&width)) &&
         width.getSExtValue() >= 1 && width.getSExtValue() <= kHostSubgroupSize;
}

/// Shuffles, broadcasts, the gathers of matrix multiply-accumulates, and
/// calls of functions with barriers or shuffles, need the threads to run
/// together.
bool BarrierSplitter::KernelPieces::synchronizes(Operation *op) const {
  return op
      ->walk([&](Operation *nested) {
        auto call = dyn_cast<func::CallOp>(nested);
        bool synchronizingCall =
            call && synchronizing.contains(call.getCalleeAttr().getAttr());
        return synchronizingCall ||
                       isRuntimeCall(nested, MgpuFunction::mgpuHostShuffleAt) ||
                       isRuntimeCall(nested,
                                     MgpuFunction::mgpuHostBroadcastAt) ||
                       isRuntimeCall(nested,
                                     MgpuFunction::mgpuHostSubgroupGatherAt)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op`, given uniform operands, gives every thread the same
/// results: it has no regions and no side effects, or it reads the block's
/// part of the context (the thread ids, slots 0 to 2, differ).
bool BarrierSplitter::KernelPieces::computesUniformly(Operation *op) const {
  if (op->getNumRegions() != 0)
    return false;
  if (isMemoryEffectFree(op))
    return true;
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    if (auto slot = load.getAddr().getDefiningOp<LLVM::GEPOp>())
      if (slot.getBase() == context && slot.getDynamicIndices().empty() &&
          slot.getRawConstantIndices().size() == 1)
        return slot.getRawConstantIndices()[0] >= kContextBlockId;
  return false;
}

bool BarrierSplitter::KernelPieces::markPerThread(ValueRange values) {
  bool changed = false;
  for (Value value : values)
    changed |= perThread.insert(value).second;
  return changed;
}

void BarrierSplitter::KernelPieces::findPerThreadValues() {
  // Optimistic: everything is uniform but the thread ids, and whatever a
  // per-thread value reaches becomes per-thread, until nothing changes
  // (loop-carried values need more than one round).
  for (int d = 1; d <= 3; ++d)
    perThread.insert(thread.getArgument(d));
  bool changed = true;
  while (changed) {
    changed = false;
    thread.walk([&](Operation *op) {
      auto anyPerThread = [&](ValueRange values) {
        return !allUniform(values);
      };
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        bool bounds = anyPerThread(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
        if (bounds)
          changed |= markPerThread(loop.getInductionVar());
        auto yields = loop.getBody()->getTerminator()->getOperands();
        for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
          if (bounds || !isUniform(loop.getInitArgs()[i]) ||
              !isUniform(yields[i]))
            changed |= markPerThread({arg, loop.getResult(i)});
      } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        Block &before = loop.getBefore().front();
        Block &after = loop.getAfter().front();
        auto condition = cast<scf::ConditionOp>(before.getTerminator());
        auto yields = after.getTerminator()->getOperands();
        for (auto [i, arg] : llvm::enumerate(before.getArguments()))
          if (!isUniform(loop.getInits()[i]) || !isUniform(yields[i]))
            changed |= markPerThread(arg);
        bool exit = !isUniform(condition.getCondition());
        for (auto [i, arg] : llvm::enumerate(after.getArguments()))
          if (exit || !isUniform(condition.getArgs()[i]))
            changed |= markPerThread({arg, loop.getResult(i)});
      } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
        bool condition = !isUniform(branch.getCondition());
        for (auto [i, result] : llvm::enumerate(branch.getResults())) {
          bool yielded = !isUniform(branch.thenYield().getOperand(i)) ||
                         !isUniform(branch.elseYield().getOperand(i));
          if (condition || yielded)
            changed |= markPerThread(result);
        }
      } else if (auto branch = dyn_cast<scf::IndexSwitchOp>(op)) {
        bool condition = !isUniform(branch.getArg());
        for (auto [i, result] : llvm::enumerate(branch.getResults())) {
          bool yielded = llvm::any_of(branch->getRegions(), [&](Region &r) {
            return !isUniform(r.front().getTerminator()->getOperand(i));
          });
          if (condition || yielded)
            changed |= markPerThread(result);
        }
      } else if (op->getNumRegions() != 0) {
        // Regions this analysis does not know: nothing in them is uniform.
        if (op != thread)
          for (Region &region : op->getRegions())
            for (Block &block : region)
              changed |= markPerThread(block.getArguments());
        if (op != thread)
          changed |= markPerThread(op->getResults());
      } else if (!computesUniformly(op) || anyPerThread(op->getOperands())) {
        changed |= markPerThread(op->getResults());
      }
    });
  }
}

bool BarrierSplitter::KernelPieces::isThreadId(Value value) const {
  auto argument = dyn_cast<BlockArgument>(value);
  // The context is the entry block's first argument, the ids the next three.
  return argument &&
         argument.getOwner() == cast<BlockArgument>(context).getOwner() &&
         argument.getArgNumber() >= 1 && argument.getArgNumber() <= 3;
}

/// Whether `value` is computed by a few ops without side effects or
/// regions from the thread ids and uniform values.
bool BarrierSplitter::KernelPieces::isRecomputable(Value value,
                                                   unsigned depth) const {
  if (isUniform(value) || isThreadId(value))
    return true;
  auto known = recomputable.find(value);
  if (known != recomputable.end())
    return known->second;
  // Deep enough for a lane id and a shuffle's source lane and validity
  // from 3-D thread ids; a value first reached too deep counts as not
  // recomputable, which only costs a buffer.
  constexpr unsigned kMaxDepth = 16;
  Operation *op = value.getDefiningOp();
  bool result =
      op && depth < kMaxDepth && op->getNumRegions() == 0 &&
      isMemoryEffectFree(op) &&
      llvm::all_of(
          op->getOperands(),
          [&](Value operand) { return isRecomputable(operand, depth + 1); });
  recomputable[value] = result;
  return result;
}

bool BarrierSplitter::KernelPieces::isSpillable(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return type.isIntOrIndexOrFloat();
}

bool BarrierSplitter::KernelPieces::analyzeSyncOp(Operation *op) {
  auto analyzeRegion = [&](Region &region) {
    if (!region.hasOneBlock())
      return false;
    Block &block = region.front();
    // What the region yields per thread goes through a buffer.
    for (Value value : block.getTerminator()->getOperands()) {
      if (isUniform(value))
        continue;
      if (!isSpillable(value.getType()))
        return false;
      buffered.insert(value);
    }
    return analyzeBlock(block);
  };
  // Per-thread values a sync op carries or returns live in buffers.
  auto bufferPerThread = [&](ValueRange values) {
    for (Value value : values) {
      if (isUniform(value))
        continue;
      if (!isSpillable(value.getType()))
        return false;
      buffered.insert(value);
    }
    return true;
  };

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (!allUniform(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}))
      return false;
    for (Value init : loop.getInitArgs())
      if (!isUniform(init) && !isSpillable(init.getType()))
        return false;
    return bufferPerThread(loop.getRegionIterArgs()) &&
           bufferPerThread(loop.getResults()) &&
           analyzeRegion(loop.getRegion());
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (!isUniform(branch.getCondition()))
      return false;
    return bufferPerThread(branch.getResults()) &&
           analyzeRegion(branch.getThenRegion()) &&
           (branch.getElseRegion().empty() ||
            analyzeRegion(branch.getElseRegion()));
  }
  if (auto branch = dyn_cast<scf::IndexSwitchOp>(op)) {
    if (!isUniform(branch.getArg()) || !bufferPerThread(branch.getResults()))
      return false;
    return llvm::all_of(branch->getRegions(), analyzeRegion);
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    // The condition is evaluated once for the block: all of it must be
    // uniform, and so must everything the loop carries.
    Block &before = loop.getBefore().front();
    if (!allUniform(loop.getInits()) || !allUniform(before.getArguments()) ||
        !allUniform(loop.getResults()))
      return false;
    for (Operation &nested : before.without_terminator()) {
      if (!computesUniformly(&nested) || !allUniform(nested.getOperands()))
        return false;
      uniformOps.insert(&nested);
    }
    return analyzeRegion(loop.getAfter());
  }
  return false;
}

bool BarrierSplitter::KernelPieces::analyzeBlock(Block &block) {
  // Which piece of the block each per-thread op belongs to.
  llvm::DenseMap<Operation *, unsigned> piece;
  unsigned current = 0;
  for (Operation &op : block.without_terminator()) {
    if (isBarrier(&op)) {
      ++current;
      continue;
    }
    if (isExchange(&op)) {
      if (!canExchangeInLoops(&op))
        return false;
      // Every lane's value goes through a buffer, where the lanes that read
      // it find it; a thread id itself has none.
      Value value = getExchangedValue(&op);
      if (!isUniform(value)) {
        if (isThreadId(value) || !isSpillable(value.getType()))
          return false;
        buffered.insert(value);
        exchanged.insert(value);
      }
      exchanges.insert(&op);
      piece[&op] = ++current;
      continue;
    }
    if (containsCut(&op)) {
      if (!analyzeSyncOp(&op))
        return false;
      syncOps.insert(&op);
      ++current;
      continue;
    }
    if (synchronizes(&op))
      return false;
    if (computesUniformly(&op) && allUniform(op.getOperands())) {
      uniformOps.insert(&op);
      continue;
    }
    piece[&op] = current;
  }

  // A per-thread value used in another piece, or in a sync op, is kept in a
  // buffer; so is one the block yields (found by analyzeSyncOp).
  for (auto [op, index] : piece) {
    for (Value result : op->getResults()) {
      bool crosses = llvm::any_of(result.getUses(), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        // An exchange reads what it moves from its own buffer (above).
        if (exchanges.contains(user) &&
            use.getOperandNumber() == kExchangeValueOperand)
          return false;
        Operation *ancestor = block.findAncestorOpInBlock(*user);
        auto userPiece = piece.find(ancestor);
        return userPiece == piece.end() || userPiece->second != index;
      });
      if (!crosses || buffered.contains(result))
        continue;
      if (isRecomputable(result)) {
        recomputed.insert(result);
        continue;
      }
      if (!isSpillable(result.getType()))
        return false;
      buffered.insert(result);
    }
  }
  return true;
}

bool BarrierSplitter::KernelPieces::canSplit() {
  Region &body = thread.getBody();
  if (!body.hasOneBlock())
    return false;
  findPerThreadValues();
  if (!analyzeBlock(body.front()))
    return false;
  // What a buffer holds is never computed again.
  for (Value value : buffered)
    recomputed.erase(value);
  return true;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

void createThreadLoops(OpBuilder &b, Location loc, ValueRange blockSize,
                       function_ref<void(OpBuilder &, ValueRange)> body) {
  OpBuilder::InsertionGuard guard(b);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto z = scf::ForOp::create(b, loc, zero, blockSize[2], one);
  b.setInsertionPointToStart(z.getBody());
  auto y = scf::ForOp::create(b, loc, zero, blockSize[1], one);
  b.setInsertionPointToStart(y.getBody());
  auto x = scf::ForOp::create(b, loc, zero, blockSize[0], one);
  b.setInsertionPointToStart(x.getBody());
  body(b, {x.getInductionVar(), y.getInductionVar(), z.getInductionVar()});
}

Value BarrierSplitter::KernelPieces::getBuffer(Value value, Location loc) {
  Value &buffer = buffers[value];
  if (buffer)
    return buffer;
  // At the top of the block function, before any loop uses it.
  OpBuilder b(threadCount.getContext());
  b.setInsertionPointAfterValue(threadCount);
  auto type = MemRefType::get({ShapedType::kDynamic}, value.getType());
  if (!exchanged.contains(value)) {
    buffer = memref::AllocaOp::create(b, loc, type, ValueRange{threadCount});
    return buffer;
  }
  // A subgroup's worth of elements on each side, which a shuffle by a
  // constant lane offset reads for lanes whose source does not exist (and
  // whose result it drops): its loads need no bounds.
  Value pad = arith::ConstantIndexOp::create(b, loc, kHostSubgroupSize);
  Value padded = memref::AllocaOp::create(
      b, loc, type,
      ValueRange{arith::AddIOp::create(
          b, loc, threadCount, arith::AddIOp::create(b, loc, pad, pad))});
  buffer = memref::SubViewOp::create(
      b, loc, padded, ArrayRef<OpFoldResult>{b.getIndexAttr(kHostSubgroupSize)},
      ArrayRef<OpFoldResult>{threadCount},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return buffer;
}

/// A loop nest over the block's threads that calls `body(builder, ids,
/// linear id)`.
/// The x loop runs to `xBound` when given (no further than the block's
/// size in x), and the linear id still counts the block's whole rows.
template <typename Fn>
void BarrierSplitter::KernelPieces::emitThreadLoop(OpBuilder &b, Location loc,
                                                   Fn body, Value xBound) {
  Value bounds[3] = {blockSize[0], blockSize[1], blockSize[2]};
  if (xBound)
    bounds[0] = arith::MinUIOp::create(b, loc, xBound, blockSize[0]);
  createThreadLoops(b, loc, bounds, [&](OpBuilder &b, ValueRange ids) {
    Value linear = arith::AddIOp::create(
        b, loc, ids[0],
        arith::MulIOp::create(
            b, loc, blockSize[0],
            arith::AddIOp::create(
                b, loc, ids[1],
                arith::MulIOp::create(b, loc, blockSize[1], ids[2]))));
    Value threadIds[3] = {ids[0], ids[1], ids[2]};
    body(b, threadIds, linear);
  });
}

/// The comparison `thread_id_x < u`, u uniform, when it guards all that
/// `segment` does: the segment is one scf.if on it, without results or else
/// branch, and ops without effects whose results no later piece uses. The
/// threads whose x id is `u` or more then do nothing in the segment, in
/// every row of the block, and its loop over x can stop at `u` (a tree
/// level of a reduction runs only its active threads).
Operation *BarrierSplitter::KernelPieces::findThreadXBound(
    ArrayRef<Operation *> segment) const {
  scf::IfOp guarded;
  for (Operation *op : segment) {
    auto branch = dyn_cast<scf::IfOp>(op);
    if (branch && !guarded && branch->getNumResults() == 0 &&
        branch.getElseRegion().empty()) {
      guarded = branch;
      continue;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        llvm::any_of(op->getResults(),
                     [&](Value result) { return buffered.contains(result); }))
      return nullptr;
  }
  if (!guarded)
    return nullptr;
  auto compare = guarded.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare || !llvm::is_contained(segment, compare.getOperation()))
    return nullptr;
  Value tidX = threadIds[0];
  bool below = (compare.getPredicate() == arith::CmpIPredicate::ult &&
                compare.getLhs() == tidX && isUniform(compare.getRhs())) ||
               (compare.getPredicate() == arith::CmpIPredicate::ugt &&
                compare.getRhs() == tidX && isUniform(compare.getLhs()));
  return below ? compare.getOperation() : nullptr;
}

void BarrierSplitter::KernelPieces::emitSegment(ArrayRef<Operation *> segment,
                                                OpBuilder &b,
                                                const IRMapping &map) {
  if (segment.empty())
    return;
  Location loc = segment.front()->getLoc();
  Operation *compare = findThreadXBound(segment);
  Value xBound;
  if (compare) {
    // The bound must be there before the loop: not a per-thread buffer's.
    auto cmp = cast<arith::CmpIOp>(compare);
    Value bound = cmp.getLhs() == threadIds[0] ? cmp.getRhs() : cmp.getLhs();
    if (map.contains(bound))
      xBound = map.lookup(bound);
    else
      compare = nullptr;
  }
  emitThreadLoop(
      b, loc,
      [&](OpBuilder &b, Value *ids, Value linear) {
        IRMapping threadMap = map;
        for (int d = 0; d < 3; ++d)
          threadMap.map(threadIds[d], ids[d]);
        // Every thread of the narrowed loop passes the comparison.
        if (compare)
          threadMap.map(compare->getResult(0),
                        arith::ConstantIntOp::create(b, loc, 1, 1).getResult());

        // Per-thread values of earlier pieces come from their buffers.
        llvm::DenseSet<Value> definedHere;
        for (Operation *op : segment)
          op->walk([&](Operation *nested) {
            for (Value result : nested->getResults())
              definedHere.insert(result);
          });
        for (Operation *op : segment)
          op->walk([&](Operation *nested) {
            for (Value operand : nested->getOperands()) {
              if (definedHere.contains(operand) || threadMap.contains(operand))
                continue;
              if (buffered.contains(operand))
                threadMap.map(operand, memref::LoadOp::create(
                                           b, loc, getBuffer(operand, loc),
                                           ValueRange{linear}));
              else if (recomputed.contains(operand))
                recompute(operand, b, threadMap);
            }
          });

        for (Operation *op : segment) {
          if (op == compare)
            continue;
          if (exchanges.contains(op))
            threadMap.map(op->getResult(0),
                          emitExchange(op, b, threadMap, linear));
          else
            b.clone(*op, threadMap);
        }

        // And those later pieces use go to theirs.
        for (Operation *op : segment)
          for (Value result : op->getResults())
            if (buffered.contains(result))
              memref::StoreOp::create(b, loc, threadMap.lookup(result),
                                      getBuffer(result, loc),
                                      ValueRange{linear});
      },
      xBound);
}

/// What a thread reads at a shuffle or broadcast whose cut every lane's
/// value is stored before: the value of its source lane, as the runtime
/// gives it on fibers. A broadcast's lane -1 is the first active lane, lane
/// 0 where every lane is active; a source lane past the lanes of a partial
/// subgroup gives the reader its own value.
Value BarrierSplitter::KernelPieces::emitExchange(Operation *op, OpBuilder &b,
                                                  const IRMapping &threadMap,
                                                  Value linear) {
  Location loc = op->getLoc();
  Value bits = op->getOperand(kExchangeValueOperand);
  if (isUniform(bits))
    return threadMap.lookupOrDefault(bits);
  Value value = getExchangedValue(op);
  Value sourceLane =
      threadMap.lookupOrDefault(op->getOperand(kExchangeLaneOperand));
  Type i32 = b.getI32Type();
  auto constantI32 = [&](int32_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  if (isBroadcast(op))
    sourceLane = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, sourceLane,
                              constantI32(-1)),
        constantI32(0), sourceLane);
  // In i32, which a block's at most 1024 threads fit: the loads from
  // lanes that differ per thread vectorize as gathers with 32-bit indices,
  // twice as many lanes an instruction as with 64-bit ones.
  Value linear32 = arith::IndexCastOp::create(b, loc, i32, linear);
  Value buffer = getBuffer(value, loc);
  auto widen = [&](Value read) -> Value {
    if (value == bits)
      return read;
    return arith::ExtUIOp::create(b, loc, bits.getType(), read);
  };
  auto readAt = [&](int64_t offset) -> Value {
    Value index = arith::AddIOp::create(
        b, loc, linear, arith::ConstantIndexOp::create(b, loc, offset));
    return memref::LoadOp::create(b, loc, buffer, ValueRange{index});
  };
  // A source lane the lane plus a constant, or the lane xor a power of two
  // (plus or minus it, by the lane's bit): loads of consecutive elements,
  // which vectorize without gathers. The buffer's padding holds what lanes
  // whose source does not exist read; their shuffle is not valid.
  // A loop's per-thread result shares the buffer of what the loop carries,
  // which may not be padded: only a padded one is a subview.
  if (buffer.getDefiningOp<memref::SubViewOp>()) {
    auto shift = op->getAttrOfType<IntegerAttr>(kShuffleLaneShiftAttrName);
    if (shift && std::abs(shift.getInt()) < kHostSubgroupSize)
      return widen(readAt(shift.getInt()));
    auto lanesXor = op->getAttrOfType<IntegerAttr>(kShuffleLaneXorAttrName);
    int64_t c = lanesXor ? lanesXor.getInt() : 0;
    if (c > 0 && c < kHostSubgroupSize && llvm::isPowerOf2_64(c)) {
      Value lane = arith::RemUIOp::create(b, loc, linear32,
                                          constantI32(kHostSubgroupSize));
      Value above = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, lane, constantI32(c)), constantI32(0));
      Value lower = readAt(-c);
      Value upper = readAt(c);
      return widen(arith::SelectOp::create(b, loc, above, lower, upper));
    }
  }
  Value threads32 = arith::IndexCastOp::create(b, loc, i32, threadCount);
  Value subgroupSize = constantI32(kHostSubgroupSize);
  Value lane = arith::RemUIOp::create(b, loc, linear32, subgroupSize);
  Value base = arith::SubIOp::create(b, loc, linear32, lane);
  Value lanes = arith::MinUIOp::create(
      b, loc, subgroupSize, arith::SubIOp::create(b, loc, threads32, base));
  Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       sourceLane, lanes);
  Value source = arith::SelectOp::create(b, loc, exists, sourceLane, lane);
  Value index = arith::IndexCastOp::create(
      b, loc, b.getIndexType(), arith::AddIOp::create(b, loc, base, source));
  return widen(memref::LoadOp::create(b, loc, buffer, ValueRange{index}));
}

/// Emits again, in a thread loop whose `threadMap` maps the thread ids, the
/// ops that compute the recomputable `value`.
Value BarrierSplitter::KernelPieces::recompute(Value value, OpBuilder &b,
                                               IRMapping &threadMap) {
  if (Value known = threadMap.lookupOrNull(value))
    return known;
  if (isUniform(value))
    return value;
  Operation *op = value.getDefiningOp();
  for (Value operand : op->getOperands())
    recompute(operand, b, threadMap);
  Operation *copy = b.clone(*op, threadMap);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

/// Stores, for every thread, the value of `values[i]` (in its buffer, a
/// thread id, or uniform) into the buffer of `targets[i]`, for the
/// per-thread targets.
void BarrierSplitter::KernelPieces::emitStorePerThread(OpBuilder &b,
                                                       Location loc,
                                                       ValueRange targets,
                                                       ValueRange values,
                                                       const IRMapping &map) {
  if (allUniform(targets))
    return;
  emitThreadLoop(b, loc, [&](OpBuilder &b, Value *ids, Value linear) {
    IRMapping threadMap = map;
    for (int d = 0; d < 3; ++d)
      threadMap.map(threadIds[d], ids[d]);
    for (auto [target, value] : llvm::zip_equal(targets, values)) {
      if (isUniform(target))
        continue;
      Value v;
      if (buffered.contains(value))
        v = memref::LoadOp::create(b, loc, getBuffer(value, loc),
                                   ValueRange{linear});
      else if (recomputed.contains(value))
        v = recompute(value, b, threadMap);
      else
        v = threadMap.lookupOrDefault(value);
      memref::StoreOp::create(b, loc, v, getBuffer(target, loc),
                              ValueRange{linear});
    }
  });
}

void BarrierSplitter::KernelPieces::emitSyncOp(Operation *op, OpBuilder &b,
                                               IRMapping &map) {
  Location loc = op->getLoc();
  // The values of `values` whose counterpart in `carried` is uniform.
  auto uniformOnly = [&](ValueRange carried, ValueRange values) {
    SmallVector<Value> kept;
    for (auto [target, value] : llvm::zip_equal(carried, values))
      if (isUniform(target))
        kept.push_back(map.lookupOrDefault(value));
    return kept;
  };
  auto mapUniform = [&](ValueRange from, ValueRange to) {
    auto it = to.begin();
    for (Value value : from)
      if (isUniform(value))
        map.map(value, *it++);
  };
  // A region's body, then what it yields: uniform values through the new
  // terminator, per-thread ones through the buffers of `targets`.
  auto emitRegion = [&](Block &block, OpBuilder &nb, ValueRange targets) {
    emitBlock(block, nb, map);
    Operation *terminator = block.getTerminator();
    emitStorePerThread(nb, loc, targets, terminator->getOperands(), map);
    SmallVector<Value> kept;
    for (auto [target, value] :
         llvm::zip_equal(targets, terminator->getOperands()))
      if (isUniform(target))
        kept.push_back(map.lookupOrDefault(value));
    if (isa<scf::YieldOp>(terminator))
      scf::YieldOp::create(nb, loc, kept);
    else
      nb.clone(*terminator, map);
  };

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // Per-thread loop-carried values start in their buffers; the loop
    // carries only the uniform ones, and its per-thread results are the
    // buffers of what it carries.
    emitStorePerThread(b, loc, loop.getRegionIterArgs(), loop.getInitArgs(),
                       map);
    for (auto [arg, result] :
         llvm::zip_equal(loop.getRegionIterArgs(), loop.getResults()))
      if (!isUniform(arg))
        buffers[result] = getBuffer(arg, loc);
    auto newLoop = scf::ForOp::create(
        b, loc, map.lookupOrDefault(loop.getLowerBound()),
        map.lookupOrDefault(loop.getUpperBound()),
        map.lookupOrDefault(loop.getStep()),
        uniformOnly(loop.getRegionIterArgs(), loop.getInitArgs()),
        [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
          map.map(loop.getInductionVar(), iv);
          mapUniform(loop.getRegionIterArgs(), args);
          emitRegion(*loop.getBody(), nb, loop.getRegionIterArgs());
        });
    mapUniform(loop.getResults(), newLoop.getResults());
    return;
  }

  // A branch's region into the new branch's: scf.if's builder may leave a
  // terminator in each block, which ours replaces; scf.index_switch's
  // leaves its regions empty.
  auto fillBranch = [&](Region &from, Region &to) {
    if (to.empty())
      to.emplaceBlock();
    Block &block = to.front();
    if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
      block.back().erase();
    OpBuilder nb = OpBuilder::atBlockEnd(&block);
    emitRegion(from.front(), nb, op->getResults());
  };
  SmallVector<Type> uniformTypes;
  for (Value result : op->getResults())
    if (isUniform(result))
      uniformTypes.push_back(result.getType());

  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    bool hasElse = !branch.getElseRegion().empty();
    auto newBranch =
        scf::IfOp::create(b, loc, uniformTypes,
                          map.lookupOrDefault(branch.getCondition()), hasElse);
    fillBranch(branch.getThenRegion(), newBranch.getThenRegion());
    if (hasElse)
      fillBranch(branch.getElseRegion(), newBranch.getElseRegion());
    mapUniform(branch.getResults(), newBranch.getResults());
    return;
  }

  if (auto branch = dyn_cast<scf::IndexSwitchOp>(op)) {
    auto newBranch = scf::IndexSwitchOp::create(
        b, loc, uniformTypes, map.lookupOrDefault(branch.getArg()),
        branch.getCases(), branch.getNumCases());
    for (auto [from, to] :
         llvm::zip_equal(branch->getRegions(), newBranch->getRegions()))
      fillBranch(from, to);
    mapUniform(branch.getResults(), newBranch.getResults());
    return;
  }

  auto loop = cast<scf::WhileOp>(op);
  auto newLoop = scf::WhileOp::create(
      b, loc, loop.getResultTypes(),
      uniformOnly(loop.getBefore().front().getArguments(), loop.getInits()),
      [&](OpBuilder &nb, Location, ValueRange args) {
        Block &before = loop.getBefore().front();
        map.map(before.getArguments(), args);
        for (Operation &nested : before)
          nb.clone(nested, map);
      },
      [&](OpBuilder &nb, Location, ValueRange args) {
        Block &after = loop.getAfter().front();
        map.map(after.getArguments(), args);
        emitRegion(after, nb, loop.getBefore().front().getArguments());
      });
  map.map(loop.getResults(), newLoop.getResults());
}

void BarrierSplitter::KernelPieces::emitBlock(Block &block, OpBuilder &b,
                                              IRMapping &map) {
  SmallVector<Operation *> segment;
  for (Operation &op : block.without_terminator()) {
    if (isBarrier(&op)) {
      emitSegment(segment, b, map);
      segment.clear();
    } else if (exchanges.contains(&op)) {
      emitSegment(segment, b, map);
      segment.assign({&op});
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

void BarrierSplitter::KernelPieces::emit(OpBuilder &b, IRMapping map,
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
    : pieces(std::make_unique<KernelPieces>(thread, synchronizing)) {}

BarrierSplitter::~BarrierSplitter() = default;

bool BarrierSplitter::canSplit() { return pieces->canSplit(); }

void BarrierSplitter::emit(OpBuilder &b, const IRMapping &blockArguments,
                           ValueRange blockSize) {
  pieces->emit(b, blockArguments, blockSize);
}

} // namespace gpu_runner
