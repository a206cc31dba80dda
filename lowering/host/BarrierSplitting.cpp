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
#include "lowering/host/HostKernels.h"
#include "lowering/host/KernelCuts.h"
#include "lowering/host/SubgroupVectors.h"
#include "lowering/runtime/MgpuCalls.h"

#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// Writes a kernel's pieces (KernelCuts) into a block function, as loops
/// over the threads or, with `subgroups`, over the subgroups
/// (SubgroupVectors.h).
class PieceEmitter {
public:
  PieceEmitter(const KernelCuts &cuts, bool subgroups)
      : cuts(cuts), subgroups(subgroups) {}

  /// Failure where a piece cannot run on a subgroup's lanes.
  LogicalResult emit(OpBuilder &b, IRMapping map, ValueRange blockSize);

private:
  Value getBuffer(Value value, Location loc);
  Value getScratch(Type element, Location loc);
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
  Operation *findXBound(ArrayRef<Operation *> segment, const IRMapping &map,
                        Value &xBound) const;
  void emitThreadSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                         const IRMapping &map, Operation *compare,
                         Value xBound);
  Value loadThread(OpBuilder &b, Location loc, Value value, Value linear);
  void storeThread(OpBuilder &b, Location loc, Value value, Value thread,
                   Value linear);

  template <typename Fn>
  void emitSubgroupLoop(OpBuilder &b, Location loc, Fn body);
  void emitSubgroupSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                           const IRMapping &map);
  void emitSubgroupStores(OpBuilder &b, Location loc, ValueRange targets,
                          ValueRange values, const IRMapping &map);
  SubgroupLanes createLanes(OpBuilder &b, Location loc, const IRMapping &map,
                            Value x0, Value y, Value z);
  Value loadLanes(OpBuilder &b, Location loc, Value value, Value linearBase);
  void storeLanes(OpBuilder &b, Location loc, Value value, Value lanes,
                  Value linearBase);

  const KernelCuts &cuts;
  bool subgroups;
  /// Whether a piece could not run on a subgroup's lanes.
  bool failedSubgroups = false;
  Value threadIds[3];
  Value blockSize[3];
  Value threadCount;
  /// The buffer of each buffered value; a sync op's per-thread results share
  /// the buffers of what it carries.
  llvm::DenseMap<Value, Value> buffers;
  /// A subgroup's worth of stack, by element type, for the shuffles on
  /// vectors whose source lanes are not constants.
  llvm::DenseMap<Type, Value> scratch;
};

} // namespace

Value PieceEmitter::getBuffer(Value value, Location loc) {
  Value &buffer = buffers[value];
  if (buffer)
    return buffer;
  // At the top of the block function, before any loop uses it.
  OpBuilder b(threadCount.getContext());
  b.setInsertionPointAfterValue(threadCount);
  // A vector of i1 is stored as bits; lanes store theirs as bytes, i8.
  Type element = value.getType();
  if (subgroups && element.isInteger(1))
    element = b.getI8Type();
  auto type = MemRefType::get({ShapedType::kDynamic}, element);
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

Value PieceEmitter::getScratch(Type element, Location loc) {
  Value &buffer = scratch[element];
  if (!buffer) {
    OpBuilder b(threadCount.getContext());
    b.setInsertionPointAfterValue(threadCount);
    buffer = memref::AllocaOp::create(
        b, loc, MemRefType::get({kHostSubgroupSize}, element));
  }
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

/// The comparison of findThreadXBound, if `segment` has one whose bound the
/// block has computed before the piece, and that bound.
Operation *PieceEmitter::findXBound(ArrayRef<Operation *> segment,
                                    const IRMapping &map, Value &xBound) const {
  Operation *compare = findThreadXBound(cuts, segment, threadIds[0]);
  if (!compare)
    return nullptr;
  // The bound must be there before the loop: not a per-thread buffer's.
  auto cmp = cast<arith::CmpIOp>(compare);
  Value bound = cmp.getLhs() == threadIds[0] ? cmp.getRhs() : cmp.getLhs();
  if (!map.contains(bound))
    return nullptr;
  xBound = map.lookup(bound);
  return compare;
}

void PieceEmitter::emitSegment(ArrayRef<Operation *> segment, OpBuilder &b,
                               const IRMapping &map) {
  if (segment.empty())
    return;
  if (subgroups)
    return emitSubgroupSegment(segment, b, map);
  Value xBound;
  Operation *compare = findXBound(segment, map, xBound);
  emitThreadSegment(segment, b, map, compare, xBound);
}

/// A piece as a loop over the threads; with `compare` (findXBound), over
/// the threads below `xBound` in x only.
void PieceEmitter::emitThreadSegment(ArrayRef<Operation *> segment,
                                     OpBuilder &b, const IRMapping &map,
                                     Operation *compare, Value xBound) {
  Location loc = segment.front()->getLoc();
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
                threadMap.map(operand, loadThread(b, loc, operand, linear));
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
              storeThread(b, loc, result, threadMap.lookup(result), linear);
      },
      xBound);
}

/// A thread's value of the buffered `value`, from its buffer (of i8 for an
/// i1 where pieces run on subgroups too).
Value PieceEmitter::loadThread(OpBuilder &b, Location loc, Value value,
                               Value linear) {
  Value loaded =
      memref::LoadOp::create(b, loc, getBuffer(value, loc), ValueRange{linear});
  if (loaded.getType() == value.getType())
    return loaded;
  return arith::TruncIOp::create(b, loc, value.getType(), loaded);
}

void PieceEmitter::storeThread(OpBuilder &b, Location loc, Value value,
                               Value thread, Value linear) {
  Value buffer = getBuffer(value, loc);
  Type stored = cast<MemRefType>(buffer.getType()).getElementType();
  if (stored != thread.getType())
    thread = arith::ExtUIOp::create(b, loc, stored, thread);
  memref::StoreOp::create(b, loc, thread, buffer, ValueRange{linear});
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
  if (subgroups)
    return emitSubgroupStores(b, loc, targets, values, map);
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

/// A loop nest over the block's subgroups, the block's size in x being a
/// multiple of the subgroup size, that calls `body(builder, x0, y, z,
/// linear id of x0)` for the subgroup of threads (x0 to x0 + 31, y, z).
template <typename Fn>
void PieceEmitter::emitSubgroupLoop(OpBuilder &b, Location loc, Fn body) {
  OpBuilder::InsertionGuard guard(b);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lanes = arith::ConstantIndexOp::create(b, loc, kHostSubgroupSize);
  Value subgroupsX = arith::DivUIOp::create(b, loc, blockSize[0], lanes);
  auto z = scf::ForOp::create(b, loc, zero, blockSize[2], one);
  b.setInsertionPointToStart(z.getBody());
  auto y = scf::ForOp::create(b, loc, zero, blockSize[1], one);
  b.setInsertionPointToStart(y.getBody());
  auto x = scf::ForOp::create(b, loc, zero, subgroupsX, one);
  // Its body is vector code already: LLVM vectorizing the loop as well
  // turns what a subgroup does once (a store by its first lane) into
  // gathers and scatters across subgroups, and unrolling it makes a copy
  // of 8 subgroups a quarter slower than the loop (reduction.mlir).
  MLIRContext *context = b.getContext();
  BoolAttr disable = b.getBoolAttr(true);
  x->setAttr(
      kLoopAnnotationAttrName,
      LLVM::LoopAnnotationAttr::get(
          context, {},
          LLVM::LoopVectorizeAttr::get(context, disable, {}, {}, {}, {}, {},
                                       {}),
          {},
          LLVM::LoopUnrollAttr::get(context, disable, {}, {}, {}, {}, {}, {}),
          {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));
  b.setInsertionPointToStart(x.getBody());
  Value x0 = arith::MulIOp::create(b, loc, x.getInductionVar(), lanes);
  Value linear = arith::AddIOp::create(
      b, loc, x0,
      arith::MulIOp::create(
          b, loc, blockSize[0],
          arith::AddIOp::create(b, loc, y.getInductionVar(),
                                arith::MulIOp::create(b, loc, blockSize[1],
                                                      z.getInductionVar()))));
  body(b, x0, y.getInductionVar(), z.getInductionVar(), linear);
}

SubgroupLanes PieceEmitter::createLanes(OpBuilder &b, Location loc,
                                        const IRMapping &map, Value x0, Value y,
                                        Value z) {
  SubgroupLanes lanes(cuts, map, blockSize[0], [this, loc](Type element) {
    return getScratch(element, loc);
  });
  lanes.setThreadIds(b, loc, x0, y, z);
  return lanes;
}

/// The subgroup's lanes of the buffered `value`, from its buffer.
Value PieceEmitter::loadLanes(OpBuilder &b, Location loc, Value value,
                              Value linearBase) {
  Value buffer = getBuffer(value, loc);
  Type stored = cast<MemRefType>(buffer.getType()).getElementType();
  Value lanes = vector::LoadOp::create(
      b, loc, VectorType::get({kHostSubgroupSize}, stored), buffer,
      ValueRange{linearBase});
  if (stored == value.getType())
    return lanes;
  return arith::TruncIOp::create(
      b, loc, VectorType::get({kHostSubgroupSize}, value.getType()), lanes);
}

void PieceEmitter::storeLanes(OpBuilder &b, Location loc, Value value,
                              Value lanes, Value linearBase) {
  Value buffer = getBuffer(value, loc);
  Type stored = cast<MemRefType>(buffer.getType()).getElementType();
  if (stored != value.getType())
    lanes = arith::ExtUIOp::create(
        b, loc, VectorType::get({kHostSubgroupSize}, stored), lanes);
  vector::StoreOp::create(b, loc, lanes, buffer, ValueRange{linearBase});
}

/// A piece as a loop over the subgroups, each running the piece's ops on
/// its lanes (SubgroupLanes): exchanges included, which do not cut here.
/// A piece that only the threads below a bound in x run (findXBound), a
/// level of a tree reduction, is the narrowed loop over those threads
/// instead, which LLVM vectorizes: run a subgroup at a time, it took a
/// sixth longer (reduction.mlir).
void PieceEmitter::emitSubgroupSegment(ArrayRef<Operation *> segment,
                                       OpBuilder &b, const IRMapping &map) {
  Location loc = segment.front()->getLoc();
  Value xBound;
  if (Operation *compare = findXBound(segment, map, xBound))
    return emitThreadSegment(segment, b, map, compare, xBound);
  emitSubgroupLoop(
      b, loc, [&](OpBuilder &b, Value x0, Value y, Value z, Value linear) {
        SubgroupLanes lanes = createLanes(b, loc, map, x0, y, z);
        llvm::DenseSet<Value> definedHere;
        for (Operation *op : segment)
          op->walk([&](Operation *nested) {
            for (Value result : nested->getResults())
              definedHere.insert(result);
          });
        llvm::DenseSet<Value> mapped;
        for (Operation *op : segment)
          op->walk([&](Operation *nested) {
            for (Value operand : nested->getOperands()) {
              if (definedHere.contains(operand) ||
                  !mapped.insert(operand).second)
                continue;
              if (cuts.buffered.contains(operand))
                lanes.mapLanes(operand, loadLanes(b, loc, operand, linear));
              else if (cuts.recomputed.contains(operand) &&
                       failed(lanes.recompute(operand, b)))
                failedSubgroups = true;
            }
          });
        for (Operation *op : segment)
          if (!failedSubgroups && failed(lanes.emit(op, b)))
            failedSubgroups = true;
        if (failedSubgroups)
          return;
        for (Operation *op : segment)
          for (Value result : op->getResults()) {
            if (!cuts.buffered.contains(result))
              continue;
            FailureOr<Value> vector = lanes.getVector(b, loc, result);
            if (failed(vector)) {
              failedSubgroups = true;
              return;
            }
            storeLanes(b, loc, result, *vector, linear);
          }
      });
}

/// emitStorePerThread for a subgroup's lanes at a time.
void PieceEmitter::emitSubgroupStores(OpBuilder &b, Location loc,
                                      ValueRange targets, ValueRange values,
                                      const IRMapping &map) {
  emitSubgroupLoop(
      b, loc, [&](OpBuilder &b, Value x0, Value y, Value z, Value linear) {
        SubgroupLanes lanes = createLanes(b, loc, map, x0, y, z);
        for (auto [target, value] : llvm::zip_equal(targets, values)) {
          if (cuts.isUniform(target))
            continue;
          Value stored;
          if (cuts.buffered.contains(value)) {
            stored = loadLanes(b, loc, value, linear);
          } else {
            FailureOr<Value> vector = failure();
            if (!cuts.recomputed.contains(value) ||
                succeeded(lanes.recompute(value, b)))
              vector = lanes.getVector(b, loc, value);
            if (failed(vector)) {
              failedSubgroups = true;
              return;
            }
            stored = *vector;
          }
          storeLanes(b, loc, target, stored, linear);
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
        },
        loop.getUnsignedCmp());
    mapUniform(loop.getResults(), newLoop.getResults());
    return;
  }

  // A branch's region into the new branch's.
  auto fillBranch = [&](Region &from, Region &to) {
    OpBuilder nb = OpBuilder::atBlockEnd(&getEmptyBranchBlock(to));
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
    } else if (cuts.exchanges.contains(&op) && cuts.cutAtExchanges) {
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

LogicalResult PieceEmitter::emit(OpBuilder &b, IRMapping map, ValueRange size) {
  func::FuncOp thread = cuts.thread;
  Location loc = thread.getLoc();
  for (int d = 0; d < 3; ++d) {
    threadIds[d] = thread.getArgument(1 + d);
    blockSize[d] = size[d];
  }
  threadCount = arith::MulIOp::create(
      b, loc, size[0], arith::MulIOp::create(b, loc, size[1], size[2]));
  emitBlock(thread.getBody().front(), b, map);
  return failure(failedSubgroups);
}

BarrierSplitter::BarrierSplitter(
    func::FuncOp thread, const llvm::DenseSet<StringAttr> &synchronizing,
    bool subgroupVectors)
    : cuts(std::make_unique<KernelCuts>(thread, /*cutAtExchanges=*/true)),
      synchronizing(synchronizing) {
  if (subgroupVectors)
    subgroupCuts =
        std::make_unique<KernelCuts>(thread, /*cutAtExchanges=*/false);
}

BarrierSplitter::~BarrierSplitter() = default;

bool BarrierSplitter::canSplit() {
  // affine.apply as the arith ops it stands for, which run on vectors.
  func::FuncOp thread = cuts->thread;
  thread.walk([](affine::AffineApplyOp apply) {
    OpBuilder b(apply);
    std::optional<SmallVector<Value, 8>> expanded = affine::expandAffineMap(
        b, apply.getLoc(), apply.getAffineMap(), apply.getOperands());
    if (!expanded)
      return;
    apply.getResult().replaceAllUsesWith(expanded->front());
    apply.erase();
  });
  if (!findKernelCuts(*cuts, synchronizing))
    return false;
  if (subgroupCuts && !findKernelCuts(*subgroupCuts, synchronizing))
    subgroupCuts.reset();
  return true;
}

bool BarrierSplitter::emit(OpBuilder &b, const IRMapping &blockArguments,
                           ValueRange blockSize,
                           std::optional<bool> wholeSubgroups) {
  if (subgroupCuts && wholeSubgroups == true) {
    // Only the loops over subgroups, unless a piece cannot run so: the
    // block function's first op is where a failed emission started.
    Block *body = b.getInsertionBlock();
    Operation *last = body->empty() ? nullptr : &body->back();
    if (succeeded(PieceEmitter(*subgroupCuts, /*subgroups=*/true)
                      .emit(b, blockArguments, blockSize)))
      return true;
    while (!body->empty() && &body->back() != last)
      body->back().erase();
    b.setInsertionPointToEnd(body);
  }
  if (subgroupCuts && !wholeSubgroups) {
    // Subgroups within a row of the block: its size in x a multiple of
    // theirs. Otherwise, or where a piece cannot run on vectors, loops
    // over the threads.
    Location loc = cuts->thread.getLoc();
    Value rest = arith::RemUIOp::create(
        b, loc, blockSize[0],
        arith::ConstantIndexOp::create(b, loc, kHostSubgroupSize));
    Value whole =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest,
                              arith::ConstantIndexOp::create(b, loc, 0));
    auto branch = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
    OpBuilder nb = OpBuilder::atBlockTerminator(branch.thenBlock());
    if (succeeded(PieceEmitter(*subgroupCuts, /*subgroups=*/true)
                      .emit(nb, blockArguments, blockSize))) {
      nb.setInsertionPoint(branch.elseBlock()->getTerminator());
      (void)PieceEmitter(*cuts, /*subgroups=*/false)
          .emit(nb, blockArguments, blockSize);
      return true;
    }
    Operation *test = whole.getDefiningOp();
    branch.erase();
    test->erase();
    rest.getDefiningOp()->erase();
  }
  (void)PieceEmitter(*cuts, /*subgroups=*/false)
      .emit(b, blockArguments, blockSize);
  return false;
}

} // namespace gpu_runner
