//===- BarrierSplitAnalysis.cpp - Where a kernel is cut, and whether ------===//
//
// The analysis of barrier splitting (BarrierSplitting.h): finds the values
// that are the same for every thread of a block (uniform), checks that every
// barrier and lane exchange (shuffle or broadcast) is reached uniformly, and
// cuts each block of ops into pieces at barriers, at exchanges and at the
// ops that contain them ("sync ops"), choosing for each per-thread value
// that crosses a cut a buffer or its computation again (KernelCuts.h).
//
//===----------------------------------------------------------------------===//

#include "lowering/host/KernelCuts.h"

#include "lowering/runtime/MgpuCalls.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace gpu_runner {

namespace {

bool isMgpuCall(Operation *op, MgpuFunction fn) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() == getMgpuFunctionName(fn);
}

/// Fills a KernelCuts: the per-thread values first, then the pieces of the
/// thread function's body and of the sync ops' regions.
class KernelAnalysis {
public:
  KernelAnalysis(KernelCuts &cuts,
                 const llvm::DenseSet<StringAttr> &synchronizing)
      : cuts(cuts), synchronizing(synchronizing) {}

  bool canSplit();

private:
  bool containsCut(Operation *op) const;
  bool canExchangeInLoops(Operation *op) const;
  bool synchronizes(Operation *op) const;
  bool computesUniformly(Operation *op) const;
  void findPerThreadValues();
  bool markPerThread(ValueRange values);
  bool analyzeBlock(Block &block);
  bool analyzeSyncOp(Operation *op);
  bool isThreadId(Value value) const;
  bool isRecomputable(Value value, unsigned depth = 0) const;
  static bool isSpillable(Type type);

  KernelCuts &cuts;
  /// Functions that reach a barrier or a shuffle.
  const llvm::DenseSet<StringAttr> &synchronizing;
  /// What isRecomputable() found, by value.
  mutable llvm::DenseMap<Value, bool> recomputable;
};

} // namespace

bool isBarrierCall(Operation *op) {
  return isMgpuCall(op, MgpuFunction::mgpuHostBarrierAt);
}

bool isShuffleCall(Operation *op) {
  return isMgpuCall(op, MgpuFunction::mgpuHostShuffleAt);
}

bool isBroadcastCall(Operation *op) {
  return isMgpuCall(op, MgpuFunction::mgpuHostBroadcastAt);
}

Value getExchangedValue(Operation *op) {
  Value value = op->getOperand(kExchangeValueOperand);
  if (auto widened = value.getDefiningOp<arith::ExtUIOp>())
    return widened.getIn();
  return value;
}

bool KernelAnalysis::containsCut(Operation *op) const {
  return op
      ->walk([&](Operation *nested) {
        return isBarrierCall(nested) || isExchangeCall(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A shuffle runs in the loops if its width is a constant the runtime would
/// accept (it reports others, on fibers); a broadcast always does.
bool KernelAnalysis::canExchangeInLoops(Operation *op) const {
  if (!isShuffleCall(op))
    return true;
  APInt width;
  return matchPattern(op->getOperand(kShuffleWidthOperand),
                      m_ConstantInt(&width)) &&
         width.getSExtValue() >= 1 && width.getSExtValue() <= kHostSubgroupSize;
}

/// Shuffles, broadcasts, the gathers of matrix multiply-accumulates, and
/// calls of functions with barriers or shuffles, need the threads to run
/// together.
bool KernelAnalysis::synchronizes(Operation *op) const {
  return op
      ->walk([&](Operation *nested) {
        auto call = dyn_cast<func::CallOp>(nested);
        bool synchronizingCall =
            call && synchronizing.contains(call.getCalleeAttr().getAttr());
        return synchronizingCall ||
                       isMgpuCall(nested, MgpuFunction::mgpuHostShuffleAt) ||
                       isMgpuCall(nested, MgpuFunction::mgpuHostBroadcastAt) ||
                       isMgpuCall(nested,
                                  MgpuFunction::mgpuHostSubgroupGatherAt)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op`, given uniform operands, gives every thread the same
/// results: it has no regions and no side effects, or it reads the block's
/// part of the context (the thread ids, slots 0 to 2, differ).
bool KernelAnalysis::computesUniformly(Operation *op) const {
  if (op->getNumRegions() != 0)
    return false;
  if (isMemoryEffectFree(op))
    return true;
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    if (auto slot = load.getAddr().getDefiningOp<LLVM::GEPOp>())
      if (slot.getBase() == cuts.context && slot.getDynamicIndices().empty() &&
          slot.getRawConstantIndices().size() == 1)
        return slot.getRawConstantIndices()[0] >= kContextBlockId;
  return false;
}

bool KernelAnalysis::markPerThread(ValueRange values) {
  bool changed = false;
  for (Value value : values)
    changed |= cuts.perThread.insert(value).second;
  return changed;
}

void KernelAnalysis::findPerThreadValues() {
  // Optimistic: everything is uniform but the thread ids, and whatever a
  // per-thread value reaches becomes per-thread, until nothing changes
  // (loop-carried values need more than one round).
  for (int d = 1; d <= 3; ++d)
    cuts.perThread.insert(cuts.thread.getArgument(d));
  bool changed = true;
  while (changed) {
    changed = false;
    cuts.thread.walk([&](Operation *op) {
      auto anyPerThread = [&](ValueRange values) {
        return !cuts.allUniform(values);
      };
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        bool bounds = anyPerThread(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
        if (bounds)
          changed |= markPerThread(loop.getInductionVar());
        auto yields = loop.getBody()->getTerminator()->getOperands();
        for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
          if (bounds || !cuts.isUniform(loop.getInitArgs()[i]) ||
              !cuts.isUniform(yields[i]))
            changed |= markPerThread({arg, loop.getResult(i)});
      } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        Block &before = loop.getBefore().front();
        Block &after = loop.getAfter().front();
        auto condition = cast<scf::ConditionOp>(before.getTerminator());
        auto yields = after.getTerminator()->getOperands();
        for (auto [i, arg] : llvm::enumerate(before.getArguments()))
          if (!cuts.isUniform(loop.getInits()[i]) || !cuts.isUniform(yields[i]))
            changed |= markPerThread(arg);
        bool exit = !cuts.isUniform(condition.getCondition());
        for (auto [i, arg] : llvm::enumerate(after.getArguments()))
          if (exit || !cuts.isUniform(condition.getArgs()[i]))
            changed |= markPerThread({arg, loop.getResult(i)});
      } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
        bool condition = !cuts.isUniform(branch.getCondition());
        for (auto [i, result] : llvm::enumerate(branch.getResults())) {
          bool yielded = !cuts.isUniform(branch.thenYield().getOperand(i)) ||
                         !cuts.isUniform(branch.elseYield().getOperand(i));
          if (condition || yielded)
            changed |= markPerThread(result);
        }
      } else if (auto branch = dyn_cast<scf::IndexSwitchOp>(op)) {
        bool condition = !cuts.isUniform(branch.getArg());
        for (auto [i, result] : llvm::enumerate(branch.getResults())) {
          bool yielded = llvm::any_of(branch->getRegions(), [&](Region &r) {
            return !cuts.isUniform(r.front().getTerminator()->getOperand(i));
          });
          if (condition || yielded)
            changed |= markPerThread(result);
        }
      } else if (op->getNumRegions() != 0) {
        // Regions this analysis does not know: nothing in them is uniform.
        if (op != cuts.thread)
          for (Region &region : op->getRegions())
            for (Block &block : region)
              changed |= markPerThread(block.getArguments());
        if (op != cuts.thread)
          changed |= markPerThread(op->getResults());
      } else if (!computesUniformly(op) || anyPerThread(op->getOperands())) {
        changed |= markPerThread(op->getResults());
      }
    });
  }
}

bool KernelAnalysis::isThreadId(Value value) const {
  auto argument = dyn_cast<BlockArgument>(value);
  // The context is the entry block's first argument, the ids the next three.
  return argument &&
         argument.getOwner() == cast<BlockArgument>(cuts.context).getOwner() &&
         argument.getArgNumber() >= 1 && argument.getArgNumber() <= 3;
}

/// Whether `value` is computed by a few ops without side effects or
/// regions from the thread ids and uniform values.
bool KernelAnalysis::isRecomputable(Value value, unsigned depth) const {
  if (cuts.isUniform(value) || isThreadId(value))
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

bool KernelAnalysis::isSpillable(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return type.isIntOrIndexOrFloat();
}

bool KernelAnalysis::analyzeSyncOp(Operation *op) {
  auto analyzeRegion = [&](Region &region) {
    if (!region.hasOneBlock())
      return false;
    Block &block = region.front();
    // What the region yields per thread goes through a buffer.
    for (Value value : block.getTerminator()->getOperands()) {
      if (cuts.isUniform(value))
        continue;
      if (!isSpillable(value.getType()))
        return false;
      cuts.buffered.insert(value);
    }
    return analyzeBlock(block);
  };
  // Per-thread values a sync op carries or returns live in buffers.
  auto bufferPerThread = [&](ValueRange values) {
    for (Value value : values) {
      if (cuts.isUniform(value))
        continue;
      if (!isSpillable(value.getType()))
        return false;
      cuts.buffered.insert(value);
    }
    return true;
  };

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (!cuts.allUniform(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}))
      return false;
    for (Value init : loop.getInitArgs())
      if (!cuts.isUniform(init) && !isSpillable(init.getType()))
        return false;
    return bufferPerThread(loop.getRegionIterArgs()) &&
           bufferPerThread(loop.getResults()) &&
           analyzeRegion(loop.getRegion());
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (!cuts.isUniform(branch.getCondition()))
      return false;
    return bufferPerThread(branch.getResults()) &&
           analyzeRegion(branch.getThenRegion()) &&
           (branch.getElseRegion().empty() ||
            analyzeRegion(branch.getElseRegion()));
  }
  if (auto branch = dyn_cast<scf::IndexSwitchOp>(op)) {
    if (!cuts.isUniform(branch.getArg()) ||
        !bufferPerThread(branch.getResults()))
      return false;
    return llvm::all_of(branch->getRegions(), analyzeRegion);
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    // The condition is evaluated once for the block: all of it must be
    // uniform, and so must everything the loop carries.
    Block &before = loop.getBefore().front();
    if (!cuts.allUniform(loop.getInits()) ||
        !cuts.allUniform(before.getArguments()) ||
        !cuts.allUniform(loop.getResults()))
      return false;
    for (Operation &nested : before.without_terminator()) {
      if (!computesUniformly(&nested) || !cuts.allUniform(nested.getOperands()))
        return false;
      cuts.uniformOps.insert(&nested);
    }
    return analyzeRegion(loop.getAfter());
  }
  return false;
}

bool KernelAnalysis::analyzeBlock(Block &block) {
  // Which piece of the block each per-thread op belongs to.
  llvm::DenseMap<Operation *, unsigned> piece;
  unsigned current = 0;
  for (Operation &op : block.without_terminator()) {
    if (isBarrierCall(&op)) {
      ++current;
      continue;
    }
    if (isExchangeCall(&op)) {
      if (!canExchangeInLoops(&op))
        return false;
      cuts.exchanges.insert(&op);
      if (!cuts.cutAtExchanges) {
        piece[&op] = current;
        continue;
      }
      // Every lane's value goes through a buffer, where the lanes that read
      // it find it; a thread id itself has none.
      Value value = getExchangedValue(&op);
      if (!cuts.isUniform(value)) {
        if (isThreadId(value) || !isSpillable(value.getType()))
          return false;
        cuts.buffered.insert(value);
        cuts.exchanged.insert(value);
      }
      piece[&op] = ++current;
      continue;
    }
    if (containsCut(&op)) {
      if (!analyzeSyncOp(&op))
        return false;
      cuts.syncOps.insert(&op);
      ++current;
      continue;
    }
    if (synchronizes(&op))
      return false;
    if (computesUniformly(&op) && cuts.allUniform(op.getOperands())) {
      cuts.uniformOps.insert(&op);
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
        // An exchange that cuts reads what it moves from its own buffer
        // (above).
        if (cuts.cutAtExchanges && cuts.exchanges.contains(user) &&
            use.getOperandNumber() == kExchangeValueOperand)
          return false;
        Operation *ancestor = block.findAncestorOpInBlock(*user);
        auto userPiece = piece.find(ancestor);
        return userPiece == piece.end() || userPiece->second != index;
      });
      if (!crosses || cuts.buffered.contains(result))
        continue;
      if (isRecomputable(result)) {
        cuts.recomputed.insert(result);
        continue;
      }
      if (!isSpillable(result.getType()))
        return false;
      cuts.buffered.insert(result);
    }
  }
  return true;
}

bool KernelAnalysis::canSplit() {
  Region &body = cuts.thread.getBody();
  if (!body.hasOneBlock())
    return false;
  findPerThreadValues();
  if (!analyzeBlock(body.front()))
    return false;
  // What a buffer holds is never computed again.
  for (Value value : cuts.buffered)
    cuts.recomputed.erase(value);
  return true;
}

bool findKernelCuts(KernelCuts &cuts,
                    const llvm::DenseSet<StringAttr> &synchronizing) {
  return KernelAnalysis(cuts, synchronizing).canSplit();
}

} // namespace gpu_runner
