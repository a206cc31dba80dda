//===- BarrierSplitting.cpp - Kernels with barriers as loops over threads -===//
//
// Two steps. The analysis (BarrierSplitAnalysis.cpp) finds where the kernel
// is cut and where each per-thread value lives (KernelCuts.h). The emission,
// here, writes the pieces as loops over the threads, runs the sync ops once
// for the block, and keeps per-thread values that cross a cut in buffers of
// one element per thread. An exchange starts the piece after its cut: by
// then every lane's value is in its buffer, and each thread reads its source
// lane's there.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/BarrierSplitting.h"
#include "lowering/host/KernelCuts.h"
#include "lowering/runtime/MgpuCalls.h"

#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>

using namespace mlir;

namespace gpu_runner {

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

namespace {

/// What a thread reads at a shuffle or broadcast whose cut every lane's
/// value is stored before: the value of its source lane, as the runtime
/// gives it on fibers. A broadcast's lane -1 is the first active lane, lane
/// 0 where every lane is active; a source lane past the lanes of a partial
/// subgroup gives the reader its own value.
/// `buffer` holds every lane's value, `threadCount` counts the block's
/// threads.
Value readSourceLane(OpBuilder &b, Operation *op, const IRMapping &threadMap,
                     Value linear, Value buffer, Value threadCount) {
  Location loc = op->getLoc();
  Value bits = op->getOperand(kExchangeValueOperand);
  Value value = getExchangedValue(op);
  Value sourceLane =
      threadMap.lookupOrDefault(op->getOperand(kExchangeLaneOperand));
  Type i32 = b.getI32Type();
  auto constantI32 = [&](int32_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  if (isBroadcastCall(op))
    sourceLane = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, sourceLane,
                              constantI32(-1)),
        constantI32(0), sourceLane);
  // In i32, which a block's at most 1024 threads fit: the loads from
  // lanes that differ per thread vectorize as gathers with 32-bit indices,
  // twice as many lanes an instruction as with 64-bit ones.
  Value linear32 = arith::IndexCastOp::create(b, loc, i32, linear);
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
Value recompute(const KernelCuts &cuts, Value value, OpBuilder &b,
                IRMapping &threadMap) {
  if (Value known = threadMap.lookupOrNull(value))
    return known;
  if (cuts.isUniform(value))
    return value;
  Operation *op = value.getDefiningOp();
  for (Value operand : op->getOperands())
    recompute(cuts, operand, b, threadMap);
  Operation *copy = b.clone(*op, threadMap);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

/// The comparison `thread_id_x < u`, u uniform, when it guards all that
/// `segment` does: the segment is one scf.if on it, without results or else
/// branch, and ops without effects whose results no later piece uses. The
/// threads whose x id is `u` or more then do nothing in the segment, in
/// every row of the block, and its loop over x can stop at `u` (a tree
/// level of a reduction runs only its active threads).
Operation *findThreadXBound(const KernelCuts &cuts,
                            ArrayRef<Operation *> segment, Value tidX) {
  scf::IfOp guarded;
  for (Operation *op : segment) {
    auto branch = dyn_cast<scf::IfOp>(op);
    if (branch && !guarded && branch->getNumResults() == 0 &&
        branch.getElseRegion().empty()) {
      guarded = branch;
      continue;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        llvm::any_of(op->getResults(), [&](Value result) {
          return cuts.buffered.contains(result);
        }))
      return nullptr;
  }
  if (!guarded)
    return nullptr;
  auto compare = guarded.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare || !llvm::is_contained(segment, compare.getOperation()))
    return nullptr;
  bool below = (compare.getPredicate() == arith::CmpIPredicate::ult &&
                compare.getLhs() == tidX && cuts.isUniform(compare.getRhs())) ||
               (compare.getPredicate() == arith::CmpIPredicate::ugt &&
                compare.getRhs() == tidX && cuts.isUniform(compare.getLhs()));
  return below ? compare.getOperation() : nullptr;
}

/// Writes a kernel's pieces (KernelCuts) into a block function.
class PieceEmitter {
public:
  explicit PieceEmitter(const KernelCuts &cuts) : cuts(cuts) {}

  void emit(OpBuilder &b, IRMapping map, ValueRange blockSize);

private:
  Value getBuffer(Value value, Location loc);
  Value emitExchange(Operation *op, OpBuilder &b, const IRMapping &threadMap,
                     Value linear);
  template <typename Fn>
  void emitThreadLoop(OpBuilder &b, Location loc, Fn body,
                      Value xBound = Value());
  void emitBlock(Block &block, OpBuilder &b, IRMapping &map);
  void emitSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                   const IRMapping &map);
  void emitSyncOp(Operation *op, OpBuilder &b, IRMapping &map);
  void emitStorePerThread(OpBuilder &b, Location loc, ValueRange targets,
                          ValueRange values, const IRMapping &map);

  const KernelCuts &cuts;
  Value threadIds[3];
  Value blockSize[3];
  Value threadCount;
  /// The buffer of each buffered value; a sync op's per-thread results share
  /// the buffers of what it carries.
  llvm::DenseMap<Value, Value> buffers;
};

} // namespace

Value PieceEmitter::getBuffer(Value value, Location loc) {
  Value &buffer = buffers[value];
  if (buffer)
    return buffer;
  // At the top of the block function, before any loop uses it.
  OpBuilder b(threadCount.getContext());
  b.setInsertionPointAfterValue(threadCount);
  auto type = MemRefType::get({ShapedType::kDynamic}, value.getType());
  if (!cuts.exchanged.contains(value)) {
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
void PieceEmitter::emitThreadLoop(OpBuilder &b, Location loc, Fn body,
                                  Value xBound) {
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

void PieceEmitter::emitSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                               const IRMapping &map) {
  if (segment.empty())
    return;
  Location loc = segment.front()->getLoc();
  Operation *compare = findThreadXBound(cuts, segment, threadIds[0]);
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
              if (cuts.buffered.contains(operand))
                threadMap.map(operand, memref::LoadOp::create(
                                           b, loc, getBuffer(operand, loc),
                                           ValueRange{linear}));
              else if (cuts.recomputed.contains(operand))
                recompute(cuts, operand, b, threadMap);
            }
          });

        for (Operation *op : segment) {
          if (op == compare)
            continue;
          if (cuts.exchanges.contains(op))
            threadMap.map(op->getResult(0),
                          emitExchange(op, b, threadMap, linear));
          else
            b.clone(*op, threadMap);
        }

        // And those later pieces use go to theirs.
        for (Operation *op : segment)
          for (Value result : op->getResults())
            if (cuts.buffered.contains(result))
              memref::StoreOp::create(b, loc, threadMap.lookup(result),
                                      getBuffer(result, loc),
                                      ValueRange{linear});
      },
      xBound);
}

/// What a thread reads at the shuffle or broadcast `op`: the uniform value
/// itself, or its source lane's from the buffer.
Value PieceEmitter::emitExchange(Operation *op, OpBuilder &b,
                                 const IRMapping &threadMap, Value linear) {
  Value bits = op->getOperand(kExchangeValueOperand);
  if (cuts.isUniform(bits))
    return threadMap.lookupOrDefault(bits);
  return readSourceLane(b, op, threadMap, linear,
                        getBuffer(getExchangedValue(op), op->getLoc()),
                        threadCount);
}

/// Stores, for every thread, the value of `values[i]` (in its buffer, a
/// thread id, or uniform) into the buffer of `targets[i]`, for the
/// per-thread targets.
void PieceEmitter::emitStorePerThread(OpBuilder &b, Location loc,
                                      ValueRange targets, ValueRange values,
                                      const IRMapping &map) {
  if (cuts.allUniform(targets))
    return;
  emitThreadLoop(b, loc, [&](OpBuilder &b, Value *ids, Value linear) {
    IRMapping threadMap = map;
    for (int d = 0; d < 3; ++d)
      threadMap.map(threadIds[d], ids[d]);
    for (auto [target, value] : llvm::zip_equal(targets, values)) {
      if (cuts.isUniform(target))
        continue;
      Value v;
      if (cuts.buffered.contains(value))
        v = memref::LoadOp::create(b, loc, getBuffer(value, loc),
                                   ValueRange{linear});
      else if (cuts.recomputed.contains(value))
        v = recompute(cuts, value, b, threadMap);
      else
        v = threadMap.lookupOrDefault(value);
      memref::StoreOp::create(b, loc, v, getBuffer(target, loc),
                              ValueRange{linear});
    }
  });
}

void PieceEmitter::emitSyncOp(Operation *op, OpBuilder &b, IRMapping &map) {
  Location loc = op->getLoc();
  // The values of `values` whose counterpart in `carried` is uniform.
  auto uniformOnly = [&](ValueRange carried, ValueRange values) {
    SmallVector<Value> kept;
    for (auto [target, value] : llvm::zip_equal(carried, values))
      if (cuts.isUniform(target))
        kept.push_back(map.lookupOrDefault(value));
    return kept;
  };
  auto mapUniform = [&](ValueRange from, ValueRange to) {
    auto it = to.begin();
    for (Value value : from)
      if (cuts.isUniform(value))
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
      if (cuts.isUniform(target))
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
      if (!cuts.isUniform(arg))
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
    if (cuts.isUniform(result))
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

void PieceEmitter::emitBlock(Block &block, OpBuilder &b, IRMapping &map) {
  SmallVector<Operation *> segment;
  for (Operation &op : block.without_terminator()) {
    if (isBarrierCall(&op)) {
      emitSegment(segment, b, map);
      segment.clear();
    } else if (cuts.exchanges.contains(&op)) {
      emitSegment(segment, b, map);
      segment.assign({&op});
    } else if (cuts.syncOps.contains(&op)) {
      emitSegment(segment, b, map);
      segment.clear();
      emitSyncOp(&op, b, map);
    } else if (cuts.uniformOps.contains(&op)) {
      b.clone(op, map);
    } else {
      segment.push_back(&op);
    }
  }
  emitSegment(segment, b, map);
}

void PieceEmitter::emit(OpBuilder &b, IRMapping map, ValueRange size) {
  func::FuncOp thread = cuts.thread;
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
    : cuts(std::make_unique<KernelCuts>(thread)), synchronizing(synchronizing) {
}

BarrierSplitter::~BarrierSplitter() = default;

bool BarrierSplitter::canSplit() {
  return findKernelCuts(*cuts, synchronizing);
}

void BarrierSplitter::emit(OpBuilder &b, const IRMapping &blockArguments,
                           ValueRange blockSize) {
  PieceEmitter(*cuts).emit(b, blockArguments, blockSize);
}

} // namespace gpu_runner
