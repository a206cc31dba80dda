//===- SubgroupVectors.cpp - A kernel's pieces on a subgroup's lanes ------===//
//
// The ops of a piece, emitted once for a subgroup's 32 lanes
// (SubgroupVectors.h). Each original value maps to a scalar, where every
// lane holds the same, or to a vector of the lanes'; ops with a vector
// operand become the same op on vectors, or a vector access, a permutation
// or masked regions.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/SubgroupVectors.h"
#include "lowering/host/KernelCuts.h"
#include "lowering/runtime/MgpuCalls.h"

#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>
#include <optional>
#include <utility>

using namespace mlir;

namespace gpu_runner {

namespace {

constexpr int64_t kLanes = kHostSubgroupSize;

VectorType getLanesType(Type element) {
  return VectorType::get({kLanes}, element);
}

bool isScalarType(Type type) { return type.isIntOrIndexOrFloat(); }

std::optional<int64_t> getConstantInt(Value value) {
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)))
    return std::nullopt;
  return constant.getSExtValue();
}

Value createZeros(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, type,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

} // namespace

SubgroupLanes::SubgroupLanes(const KernelCuts &cuts, IRMapping map,
                             Value blockSizeX,
                             std::function<Value(Type)> getScratch)
    : cuts(cuts), values(std::move(map)), getScratch(std::move(getScratch)) {
  multiples.insert(blockSizeX);
}

void SubgroupLanes::setThreadIds(OpBuilder &b, Location loc, Value x0, Value y,
                                 Value z) {
  multiples.insert(x0);
  Value x = arith::AddIOp::create(
      b, loc, broadcast(b, loc, x0),
      laneConstant(b, loc, b.getIndexType(), [](int64_t l) { return l; }));
  func::FuncOp thread = cuts.thread;
  mapResult(thread.getArgument(1), x, /*asLanes=*/true);
  firstLane[x] = x0;
  values.map(thread.getArgument(2), y);
  values.map(thread.getArgument(3), z);
}

void SubgroupLanes::mapLanes(Value original, Value vector) {
  mapResult(original, vector, /*asLanes=*/true);
}

void SubgroupLanes::mapResult(Value original, Value emitted, bool asLanes) {
  values.map(original, emitted);
  if (asLanes)
    lanes.insert(emitted);
}

Value SubgroupLanes::broadcast(OpBuilder &b, Location loc, Value emitted) {
  if (isLanes(emitted))
    return emitted;
  return vector::BroadcastOp::create(b, loc, getLanesType(emitted.getType()),
                                     emitted);
}

bool SubgroupLanes::isMultipleOfSubgroup(Value scalar) const {
  if (multiples.contains(scalar))
    return true;
  std::optional<int64_t> constant = getConstantInt(scalar);
  return constant && *constant % kLanes == 0;
}

/// A vector constant whose lane l holds `lane(l)`.
Value SubgroupLanes::laneConstant(OpBuilder &b, Location loc, Type elementType,
                                  function_ref<int64_t(int64_t)> lane) {
  VectorType type = getLanesType(elementType);
  SmallVector<Attribute> elements;
  for (int64_t l = 0; l < kLanes; ++l)
    elements.push_back(b.getIntegerAttr(elementType, lane(l)));
  return arith::ConstantOp::create(b, loc, type,
                                   DenseElementsAttr::get(type, elements));
}

Value SubgroupLanes::allLanes(OpBuilder &b, Location loc) {
  return laneConstant(b, loc, b.getI1Type(), [](int64_t) { return 1; });
}

/// What `indices` are for the subgroup, into `emitted`; how many differ
/// between the lanes.
unsigned SubgroupLanes::lookupIndices(ValueRange indices,
                                      SmallVectorImpl<Value> &emitted) const {
  for (Value index : indices)
    emitted.push_back(lookup(index));
  return llvm::count_if(emitted, [&](Value v) { return isLanes(v); });
}

Value SubgroupLanes::anyLane(OpBuilder &b, Location loc, Value laneMask) {
  return vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                     laneMask);
}

LogicalResult SubgroupLanes::emit(Operation *op, OpBuilder &b) {
  if (isExchangeCall(op))
    return emitExchange(op, b);
  if (isa<memref::LoadOp>(op))
    return emitLoad(op, b);
  if (isa<memref::StoreOp>(op))
    return emitStore(op, b);
  if (isa<scf::IfOp>(op))
    return emitIf(op, b);
  if (isa<scf::ForOp>(op))
    return emitFor(op, b);
  if (auto region = dyn_cast<scf::ExecuteRegionOp>(op)) {
    FailureOr<SmallVector<Type>> types = getResultTypes(op->getResults());
    if (!region.getRegion().hasOneBlock() || failed(types))
      return failure();
    FailureOr<SmallVector<Value>> results =
        emitRegion(region.getRegion().front(), b, *types);
    if (failed(results))
      return failure();
    for (auto [result, value] : llvm::zip_equal(op->getResults(), *results))
      mapResult(result, value, value.getType() != result.getType());
    return success();
  }
  // Calls of device functions (which reach no barrier or exchange here)
  // and atomics: lane by lane.
  if (isa<func::CallOp, memref::AtomicRMWOp>(op))
    return emitLaneByLane(op, b);
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return failure();
  return emitPure(op, b);
}

/// `op` once for each active lane, in lane order, as the loops over the
/// threads run it, on the lane's operands; its results, which must be
/// scalars, as vectors of the lanes'.
LogicalResult SubgroupLanes::emitLaneByLane(Operation *op, OpBuilder &b) {
  Location loc = op->getLoc();
  if (op->getNumRegions() != 0 ||
      llvm::any_of(op->getResultTypes(),
                   [](Type type) { return !isScalarType(type); }))
    return failure();
  SmallVector<Value> results;
  for (Type type : op->getResultTypes())
    results.push_back(createZeros(b, loc, getLanesType(type)));
  DenseElementsAttr constantMask;
  bool known = !mask || matchPattern(mask, m_Constant(&constantMask));
  for (int64_t l = 0; l < kLanes; ++l) {
    if (constantMask && !constantMask.getValues<bool>()[l])
      continue;
    auto laneOf = [&](OpBuilder &nb, Value v) -> Value {
      return isLanes(v) ? vector::ExtractOp::create(nb, loc, v, l).getResult()
                        : v;
    };
    auto emitLane = [&](OpBuilder &nb) {
      IRMapping laneMap;
      for (Value operand : op->getOperands())
        laneMap.map(operand, laneOf(nb, lookup(operand)));
      return nb.clone(*op, laneMap)->getResults();
    };
    SmallVector<Value> laneResults;
    if (known) {
      llvm::append_range(laneResults, emitLane(b));
    } else {
      auto branch = scf::IfOp::create(
          b, loc, op->getResultTypes(),
          vector::ExtractOp::create(b, loc, mask, l), /*withElseRegion=*/true);
      OpBuilder nb = OpBuilder::atBlockEnd(branch.thenBlock());
      if (!branch.thenBlock()->empty())
        nb.setInsertionPoint(branch.thenBlock()->getTerminator());
      SmallVector<Value> ran(emitLane(nb));
      if (!op->getResults().empty()) {
        scf::YieldOp::create(nb, loc, ran);
        nb.setInsertionPointToEnd(branch.elseBlock());
        SmallVector<Value> zeros;
        for (Type type : op->getResultTypes())
          zeros.push_back(createZeros(nb, loc, type));
        scf::YieldOp::create(nb, loc, zeros);
      }
      llvm::append_range(laneResults, branch.getResults());
    }
    for (auto [all, one] : llvm::zip_equal(results, laneResults))
      all = vector::InsertOp::create(b, loc, one, all, l);
  }
  for (auto [result, value] : llvm::zip_equal(op->getResults(), results))
    mapResult(result, value, /*asLanes=*/true);
  return success();
}

LogicalResult SubgroupLanes::recompute(Value value, OpBuilder &b) {
  if (values.contains(value) || cuts.isUniform(value))
    return success();
  Operation *op = value.getDefiningOp();
  if (!op)
    return failure();
  for (Value operand : op->getOperands())
    if (failed(recompute(operand, b)))
      return failure();
  return emitPure(op, b);
}

FailureOr<Value> SubgroupLanes::getVector(OpBuilder &b, Location loc,
                                          Value original) {
  if (!isScalarType(original.getType()))
    return failure();
  return broadcast(b, loc, lookup(original));
}

/// An op without side effects: on scalars where no operand differs between
/// the lanes, else the same op on vectors (only elementwise ops have one).
LogicalResult SubgroupLanes::emitPure(Operation *op, OpBuilder &b) {
  bool anyLanes = llvm::any_of(op->getOperands(), [&](Value operand) {
    return isLanes(lookup(operand));
  });
  if (!anyLanes) {
    Operation *copy = b.clone(*op, values);
    // What stays a multiple of the subgroup size, for emitConsecutive.
    auto multiple = [&](unsigned i) {
      return isMultipleOfSubgroup(lookup(op->getOperand(i)));
    };
    if ((isa<arith::MulIOp>(op) && (multiple(0) || multiple(1))) ||
        (isa<arith::AddIOp, arith::SubIOp>(op) && multiple(0) && multiple(1)) ||
        (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) && multiple(0)))
      multiples.insert(copy->getResult(0));
    return success();
  }
  if (emitConsecutive(op, b))
    return success();
  if (!op->hasTrait<OpTrait::Elementwise>())
    return failure();
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    if (!isScalarType(operand.getType()))
      return failure();
    operands.push_back(broadcast(b, loc, lookup(operand)));
  }
  // An integer division runs in every lane, where the inactive ones may
  // hold a divisor the CPU traps at (0, or -1 under the lowest dividend):
  // they divide by 1.
  if (mask &&
      isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op)) {
    Type element = op->getOperand(1).getType();
    Value one = vector::BroadcastOp::create(
        b, loc, getLanesType(element),
        arith::ConstantOp::create(b, loc, element,
                                  b.getIntegerAttr(element, 1)));
    operands[1] = arith::SelectOp::create(b, loc, mask, operands[1], one);
  }
  SmallVector<Type> types;
  for (Type type : op->getResultTypes()) {
    if (!isScalarType(type))
      return failure();
    types.push_back(getLanesType(type));
  }
  Operation *vectorOp = b.create(loc, op->getName().getIdentifier(), operands,
                                 types, op->getAttrs());
  for (auto [result, lanesResult] :
       llvm::zip_equal(op->getResults(), vectorOp->getResults()))
    mapResult(result, lanesResult, /*asLanes=*/true);
  return success();
}

/// The ops that keep lanes consecutive, or turn consecutive lanes from a
/// multiple of the subgroup size into constants or a scalar: a thread's
/// global or linear id, its lane id and its subgroup id. False if `op` is
/// none of them.
bool SubgroupLanes::emitConsecutive(Operation *op, OpBuilder &b) {
  Location loc = op->getLoc();
  auto first = [&](Value original) -> Value {
    return firstLane.lookup(lookup(original));
  };
  auto scalar = [&](Value original) -> Value {
    Value emitted = lookup(original);
    return isLanes(emitted) ? Value() : emitted;
  };
  auto consecutive = [&](Value vector, Value start) {
    mapResult(op->getResult(0), vector, /*asLanes=*/true);
    firstLane[vector] = start;
  };

  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    bool subtract = isa<arith::SubIOp>(op);
    if (!first(lhs) && !subtract)
      std::swap(lhs, rhs);
    Value start = first(lhs), offset = scalar(rhs);
    if (!start || !offset)
      return false;
    Value vector, newStart;
    if (subtract) {
      vector =
          arith::SubIOp::create(b, loc, lookup(lhs), broadcast(b, loc, offset));
      newStart = arith::SubIOp::create(b, loc, start, offset);
    } else {
      vector =
          arith::AddIOp::create(b, loc, lookup(lhs), broadcast(b, loc, offset));
      newStart = arith::AddIOp::create(b, loc, start, offset);
    }
    consecutive(vector, newStart);
    if (isMultipleOfSubgroup(start) && isMultipleOfSubgroup(offset))
      multiples.insert(newStart);
    return true;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
    Value start = first(op->getOperand(0));
    if (!start)
      return false;
    Type type = op->getResult(0).getType();
    Operation *vector =
        b.create(loc, op->getName().getIdentifier(),
                 {lookup(op->getOperand(0))}, {getLanesType(type)});
    Operation *newStart =
        b.create(loc, op->getName().getIdentifier(), {start}, {type});
    consecutive(vector->getResult(0), newStart->getResult(0));
    if (isMultipleOfSubgroup(start))
      multiples.insert(newStart->getResult(0));
    return true;
  }
  // Consecutive lanes equal to a scalar: at most one, and some lane is when
  // the scalar less the first lane is below 32 (in the lanes' own
  // wrapping arithmetic), which a branch on the comparison tests instead
  // of the lanes (`if (thread_id_x == 0)`).
  if (auto compare = dyn_cast<arith::CmpIOp>(op)) {
    Value lhs = compare.getLhs(), rhs = compare.getRhs();
    if (!first(lhs))
      std::swap(lhs, rhs);
    Value start = first(lhs), other = scalar(rhs);
    Type type = lhs.getType();
    if (compare.getPredicate() != arith::CmpIPredicate::eq || !start ||
        !other || (!type.isIndex() && type.getIntOrFloatBitWidth() <= 5))
      return false;
    Value lanesEqual =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lookup(lhs),
                              broadcast(b, loc, other));
    mapResult(op->getResult(0), lanesEqual, /*asLanes=*/true);
    Value lanes =
        arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, kLanes));
    anyOf[lanesEqual] = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::SubIOp::create(b, loc, other, start), lanes);
    return true;
  }
  // Lanes from a multiple of 32 by a constant: lane l is that multiple
  // plus l, its remainder and low bits l's, its quotient by 32 the same
  // in every lane.
  if (!isa<arith::RemUIOp, arith::DivUIOp, arith::AndIOp>(op))
    return false;
  Value start = first(op->getOperand(0));
  std::optional<int64_t> c = getConstantInt(op->getOperand(1));
  if (!start || !isMultipleOfSubgroup(start) || !c)
    return false;
  Type type = op->getResult(0).getType();
  if (isa<arith::RemUIOp>(op) && *c > 0 && kLanes % *c == 0) {
    int64_t divisor = *c;
    Value remainders =
        laneConstant(b, loc, type, [&](int64_t l) { return l % divisor; });
    mapResult(op->getResult(0), remainders, /*asLanes=*/true);
    if (divisor == kLanes)
      firstLane[remainders] = createZeros(b, loc, type);
    return true;
  }
  if (isa<arith::AndIOp>(op) && *c >= 0 && *c < kLanes) {
    int64_t bits = *c;
    mapResult(op->getResult(0),
              laneConstant(b, loc, type, [&](int64_t l) { return l & bits; }),
              /*asLanes=*/true);
    return true;
  }
  if (isa<arith::DivUIOp>(op) && *c == kLanes) {
    mapResult(op->getResult(0),
              arith::DivUIOp::create(b, loc, start, lookup(op->getOperand(1))),
              /*asLanes=*/false);
    return true;
  }
  return false;
}

/// A load: a scalar where every lane loads the same element, a vector load
/// where the lanes load consecutive ones, else a gather; under a mask only
/// the active lanes' elements are read.
LogicalResult SubgroupLanes::emitLoad(Operation *op, OpBuilder &b) {
  auto load = cast<memref::LoadOp>(op);
  Location loc = op->getLoc();
  Value memref = lookup(load.getMemref());
  SmallVector<Value> indices;
  unsigned perLane = lookupIndices(load.getIndices(), indices);
  if (isLanes(memref) || !isScalarType(load.getType()))
    return failure();
  if (perLane == 0) {
    // Where no lane is active, the region is not entered (emitIf).
    b.clone(*op, values);
    return success();
  }
  auto type = cast<MemRefType>(memref.getType());
  if (perLane != 1 || !isLanes(indices.back()) || !type.isLastDimUnitStride())
    return failure();
  VectorType lanesType = getLanesType(load.getType());
  Value last = indices.back();
  Value loaded;
  if (Value start = firstLane.lookup(last)) {
    indices.back() = start;
    if (mask)
      loaded =
          vector::MaskedLoadOp::create(b, loc, lanesType, memref, indices, mask,
                                       createZeros(b, loc, lanesType));
    else
      loaded = vector::LoadOp::create(b, loc, lanesType, memref, indices);
  } else {
    indices.back() = arith::ConstantIndexOp::create(b, loc, 0);
    Value active = mask ? mask : allLanes(b, loc);
    loaded = vector::GatherOp::create(b, loc, lanesType, memref, indices, last,
                                      active, createZeros(b, loc, lanesType));
  }
  mapResult(load.getResult(), loaded, /*asLanes=*/true);
  return success();
}

/// A store: a vector store where the lanes store to consecutive elements,
/// else lane by lane in lane order, as the loops over threads store, so
/// that where lanes store to the same element the highest active lane's
/// value stays; only the active lanes store.
LogicalResult SubgroupLanes::emitStore(Operation *op, OpBuilder &b) {
  auto store = cast<memref::StoreOp>(op);
  Location loc = op->getLoc();
  Value memref = lookup(store.getMemref());
  Value value = lookup(store.getValueToStore());
  SmallVector<Value> indices;
  unsigned perLane = lookupIndices(store.getIndices(), indices);
  if (isLanes(memref) || !isScalarType(store.getValueToStore().getType()))
    return failure();
  if (perLane == 0 && !isLanes(value)) {
    b.clone(*op, values);
    return success();
  }
  auto type = cast<MemRefType>(memref.getType());
  Value start = perLane == 1 ? firstLane.lookup(indices.back()) : Value();
  if (start && type.isLastDimUnitStride()) {
    indices.back() = start;
    Value lanesValue = broadcast(b, loc, value);
    if (mask)
      vector::MaskedStoreOp::create(b, loc, memref, indices, mask, lanesValue);
    else
      vector::StoreOp::create(b, loc, lanesValue, memref, indices);
    return success();
  }

  // The lanes that store, where they are known now.
  SmallVector<bool> active(kLanes, true);
  DenseElementsAttr constantMask;
  bool known = !mask || matchPattern(mask, m_Constant(&constantMask));
  if (constantMask)
    active.assign(constantMask.getValues<bool>().begin(),
                  constantMask.getValues<bool>().end());
  // Every lane stores to the same element: the last active one's value.
  if (perLane == 0 && known) {
    const bool *lastActive =
        std::find(active.rbegin(), active.rend(), true).base();
    if (lastActive == active.begin())
      return success();
    int64_t lane = lastActive - active.begin() - 1;
    memref::StoreOp::create(b, loc,
                            vector::ExtractOp::create(b, loc, value, lane),
                            memref, indices);
    return success();
  }
  for (int64_t l = 0; l < kLanes; ++l) {
    if (!active[l])
      continue;
    OpBuilder::InsertionGuard guard(b);
    if (!known) {
      auto branch = scf::IfOp::create(
          b, loc, vector::ExtractOp::create(b, loc, mask, l), false);
      b.setInsertionPoint(branch.thenBlock()->getTerminator());
    }
    auto laneOf = [&](Value v) -> Value {
      return isLanes(v) ? vector::ExtractOp::create(b, loc, v, l).getResult()
                        : v;
    };
    SmallVector<Value> at;
    for (Value index : indices)
      at.push_back(laneOf(index));
    memref::StoreOp::create(b, loc, laneOf(value), memref, at);
  }
  return success();
}

/// A shuffle or broadcast (KernelCuts.h): every lane is active, since the
/// kernel reaches its exchanges uniformly. The runtime call's result is
/// the source lane's bits; the ops after it keep the lane's own value
/// where the shuffle is not valid, so what lanes without a valid source
/// read here does not matter.
LogicalResult SubgroupLanes::emitExchange(Operation *op, OpBuilder &b) {
  Location loc = op->getLoc();
  Value bits = op->getOperand(kExchangeValueOperand);
  Value exchanged = getExchangedValue(op);
  Value own = lookup(exchanged);
  Value result = op->getResult(0);
  auto widen = [&](Value moved) -> Value {
    if (exchanged == bits)
      return moved;
    Type type = isa<VectorType>(moved.getType())
                    ? Type(getLanesType(bits.getType()))
                    : bits.getType();
    return arith::ExtUIOp::create(b, loc, type, moved);
  };
  if (!isLanes(own)) {
    mapResult(result, widen(own), /*asLanes=*/false);
    return success();
  }
  if (!isScalarType(exchanged.getType()))
    return failure();

  if (isBroadcastCall(op)) {
    // Lane -1 is the first active lane: lane 0, all being active.
    std::optional<int64_t> lane =
        getConstantInt(op->getOperand(kExchangeLaneOperand));
    if (!lane || *lane < -1 || *lane >= kLanes)
      return failure();
    Value value =
        vector::ExtractOp::create(b, loc, own, std::max<int64_t>(*lane, 0));
    mapResult(result, widen(value), /*asLanes=*/false);
    return success();
  }

  // A source lane the lane plus or xor a constant: a permutation.
  SmallVector<int64_t> permutation;
  auto shift = op->getAttrOfType<IntegerAttr>(kShuffleLaneShiftAttrName);
  auto lanesXor = op->getAttrOfType<IntegerAttr>(kShuffleLaneXorAttrName);
  if (shift && std::abs(shift.getInt()) < kLanes) {
    int64_t c = shift.getInt();
    for (int64_t l = 0; l < kLanes; ++l)
      permutation.push_back(l + c >= 0 && l + c < kLanes ? l + c : l);
  } else if (lanesXor && lanesXor.getInt() >= 0 && lanesXor.getInt() < kLanes) {
    for (int64_t l = 0; l < kLanes; ++l)
      permutation.push_back(l ^ lanesXor.getInt());
  }
  if (!permutation.empty()) {
    Value moved = vector::ShuffleOp::create(
        b, loc, own, own, b.getDenseI64ArrayAttr(permutation));
    mapResult(result, widen(moved), /*asLanes=*/true);
    return success();
  }

  // Any other source lane (the call's is within the subgroup): the same
  // for every lane, an element; else a gather from the lanes' values on
  // the stack.
  Value source = lookup(op->getOperand(kExchangeLaneOperand));
  Value lastLane = arith::ConstantIntOp::create(b, loc, kLanes - 1, 32);
  if (!isLanes(source)) {
    Value at = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::AndIOp::create(b, loc, source, lastLane));
    Value moved = vector::ExtractOp::create(b, loc, own, OpFoldResult(at));
    mapResult(result, widen(moved), /*asLanes=*/false);
    return success();
  }
  VectorType lanesType = getLanesType(exchanged.getType());
  Value scratch = getScratch(exchanged.getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  vector::StoreOp::create(b, loc, own, scratch, ValueRange{zero});
  Value at = arith::AndIOp::create(b, loc, source, broadcast(b, loc, lastLane));
  Value all = allLanes(b, loc);
  Value moved =
      vector::GatherOp::create(b, loc, lanesType, scratch, ValueRange{zero}, at,
                               all, createZeros(b, loc, lanesType));
  mapResult(result, widen(moved), /*asLanes=*/true);
  return success();
}

/// The types `results` take for the subgroup: a vector of the lanes' for
/// values that may differ between the threads of a block.
FailureOr<SmallVector<Type>>
SubgroupLanes::getResultTypes(ValueRange results) const {
  SmallVector<Type> types;
  for (Value result : results) {
    if (cuts.isUniform(result)) {
      types.push_back(result.getType());
      continue;
    }
    if (!isScalarType(result.getType()))
      return failure();
    types.push_back(getLanesType(result.getType()));
  }
  return types;
}

/// What `original` is as a value of `type` (its own, or a vector of it).
FailureOr<Value> SubgroupLanes::convert(OpBuilder &b, Location loc,
                                        Value original, Type type) {
  Value emitted = lookup(original);
  if (emitted.getType() == type)
    return emitted;
  if (isLanes(emitted) || type != getLanesType(emitted.getType()))
    return failure();
  return broadcast(b, loc, emitted);
}

FailureOr<SmallVector<Value>>
SubgroupLanes::emitRegion(Block &block, OpBuilder &b, TypeRange resultTypes) {
  for (Operation &op : block.without_terminator())
    if (failed(emit(&op, b)))
      return failure();
  SmallVector<Value> results;
  Operation *terminator = block.getTerminator();
  for (auto [operand, type] :
       llvm::zip_equal(terminator->getOperands(), resultTypes)) {
    FailureOr<Value> converted =
        convert(b, terminator->getLoc(), operand, type);
    if (failed(converted))
      return failure();
    results.push_back(*converted);
  }
  return results;
}

/// A branch: as it is where every lane takes the same way; else each side
/// under the mask of the lanes that take it, run only where one does, and
/// the results chosen lane by lane.
LogicalResult SubgroupLanes::emitIf(Operation *op, OpBuilder &b) {
  auto branch = cast<scf::IfOp>(op);
  Location loc = op->getLoc();
  FailureOr<SmallVector<Type>> types = getResultTypes(branch.getResults());
  if (failed(types))
    return failure();
  bool hasElse = !branch.getElseRegion().empty();
  Value condition = lookup(branch.getCondition());

  // Fills `region` of a new scf.if with `from`'s ops (or none) and a yield.
  auto fill = [&](Region &region, Block *from) -> LogicalResult {
    OpBuilder nb = OpBuilder::atBlockEnd(&getEmptyBranchBlock(region));
    SmallVector<Value> yielded;
    if (from) {
      FailureOr<SmallVector<Value>> results = emitRegion(*from, nb, *types);
      if (failed(results))
        return failure();
      yielded = *results;
    } else {
      for (Type type : *types)
        yielded.push_back(createZeros(nb, loc, type));
    }
    scf::YieldOp::create(nb, loc, yielded);
    return success();
  };
  auto mapResults = [&](ValueRange emitted) {
    for (auto [result, value] : llvm::zip_equal(branch.getResults(), emitted))
      mapResult(result, value, value.getType() != result.getType());
  };

  if (!isLanes(condition)) {
    auto newBranch = scf::IfOp::create(b, loc, *types, condition, hasElse);
    if (failed(fill(newBranch.getThenRegion(), branch.thenBlock())) ||
        (hasElse &&
         failed(fill(newBranch.getElseRegion(), branch.elseBlock()))))
      return failure();
    mapResults(newBranch.getResults());
    return success();
  }

  if (llvm::any_of(*types, [](Type type) { return !isa<VectorType>(type); }))
    return failure();
  auto side = [&](Block *block, Value taken) -> FailureOr<scf::IfOp> {
    Value sideMask =
        mask ? arith::AndIOp::create(b, loc, mask, taken).getResult() : taken;
    Value any = mask ? Value() : anyOf.lookup(taken);
    if (!any)
      any = anyLane(b, loc, sideMask);
    auto run = scf::IfOp::create(b, loc, *types, any,
                                 /*withElseRegion=*/!types->empty());
    Value outer = mask;
    mask = sideMask;
    LogicalResult filled = fill(run.getThenRegion(), block);
    mask = outer;
    if (failed(filled) ||
        (!types->empty() && failed(fill(run.getElseRegion(), nullptr))))
      return failure();
    return run;
  };
  FailureOr<scf::IfOp> thenSide = side(branch.thenBlock(), condition);
  if (failed(thenSide))
    return failure();
  if (!hasElse)
    return success();
  FailureOr<scf::IfOp> elseSide =
      side(branch.elseBlock(),
           arith::XOrIOp::create(b, loc, condition, allLanes(b, loc)));
  if (failed(elseSide))
    return failure();
  SmallVector<Value> chosen;
  for (auto [fromThen, fromElse] :
       llvm::zip_equal(thenSide->getResults(), elseSide->getResults()))
    chosen.push_back(
        arith::SelectOp::create(b, loc, condition, fromThen, fromElse));
  mapResults(chosen);
  return success();
}

/// A loop whose bounds are the same in every lane. What it carries stays a
/// scalar unless the body makes it differ between the lanes: the loop is
/// emitted carrying as vectors only what starts as one, and again with
/// what its body made one, until it agrees. An accumulator of loads at
/// uniform addresses (gpu.all_reduce's pass over workgroup memory) then
/// stays a scalar, which LLVM vectorizes as a reduction.
LogicalResult SubgroupLanes::emitFor(Operation *op, OpBuilder &b) {
  auto loop = cast<scf::ForOp>(op);
  Location loc = op->getLoc();
  Value lower = lookup(loop.getLowerBound());
  Value upper = lookup(loop.getUpperBound());
  Value step = lookup(loop.getStep());
  if (isLanes(upper) || isLanes(step))
    return failure();
  if (isLanes(lower))
    return emitLaneLoop(op, b);
  SmallVector<bool> asLanes;
  for (Value init : loop.getInitArgs())
    asLanes.push_back(isLanes(lookup(init)));
  for (size_t attempt = 0; attempt <= asLanes.size(); ++attempt) {
    SmallVector<Value> inits;
    for (auto [init, vector] : llvm::zip_equal(loop.getInitArgs(), asLanes)) {
      if (vector && !isScalarType(init.getType()))
        return failure();
      inits.push_back(vector ? broadcast(b, loc, lookup(init)) : lookup(init));
    }
    bool emitted = true;
    SmallVector<size_t> widened;
    auto newLoop = scf::ForOp::create(
        b, loc, lower, upper, step, inits,
        [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
          values.map(loop.getInductionVar(), iv);
          for (auto [arg, value, vector] :
               llvm::zip_equal(loop.getRegionIterArgs(), args, asLanes))
            mapResult(arg, value, vector);
          for (Operation &nested : loop.getBody()->without_terminator())
            if (emitted && failed(emit(&nested, nb)))
              emitted = false;
          SmallVector<Value> yielded;
          for (auto [i, operand] : llvm::enumerate(
                   loop.getBody()->getTerminator()->getOperands())) {
            Value value = emitted ? lookup(operand) : Value();
            if (value && !asLanes[i] && isLanes(value))
              widened.push_back(i);
            yielded.push_back(value && asLanes[i] ? broadcast(nb, loc, value)
                                                  : value);
          }
          bool agreed = emitted && widened.empty();
          scf::YieldOp::create(nb, loc, agreed ? ValueRange(yielded) : args);
        },
        loop.getUnsignedCmp());
    if (!emitted)
      return failure();
    if (widened.empty()) {
      for (auto [result, value, vector] :
           llvm::zip_equal(loop.getResults(), newLoop.getResults(), asLanes))
        mapResult(result, value, vector);
      return success();
    }
    for (size_t i : widened)
      asLanes[i] = true;
    forget(newLoop);
    newLoop.erase();
  }
  return failure();
}

/// Drops what is known of the values `op` defines, which is about to be
/// erased (an erased value's storage may be a later one's).
void SubgroupLanes::forget(Operation *op) {
  auto drop = [&](Value value) {
    lanes.erase(value);
    firstLane.erase(value);
    anyOf.erase(value);
    multiples.erase(value);
  };
  op->walk([&](Operation *nested) {
    for (Value result : nested->getResults())
      drop(result);
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (Value argument : block.getArguments())
          drop(argument);
  });
}

/// A loop whose lower bound differs between the lanes (a grid-stride
/// loop: from the thread id, by the block size): every lane's induction
/// variable in a vector, run while one lane's is below the upper bound,
/// the body under the mask of those lanes, which alone update what the
/// loop carries. A lower bound of consecutive lanes stays so in the lanes
/// that run, which are all the mask lets a vector access touch.
LogicalResult SubgroupLanes::emitLaneLoop(Operation *op, OpBuilder &b) {
  auto loop = cast<scf::ForOp>(op);
  Location loc = op->getLoc();
  Value lower = lookup(loop.getLowerBound());
  Value upper = broadcast(b, loc, lookup(loop.getUpperBound()));
  Value step = lookup(loop.getStep());
  Value start = firstLane.lookup(lower);
  SmallVector<Type> types;
  SmallVector<Value> inits = {lower};
  for (Value init : loop.getInitArgs()) {
    if (!isScalarType(init.getType()))
      return failure();
    types.push_back(getLanesType(init.getType()));
    inits.push_back(broadcast(b, loc, lookup(init)));
  }
  if (start)
    inits.push_back(start);
  SmallVector<Type> carried(ValueRange(inits).getTypes());
  auto predicate = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt;
  Value outer = mask;
  auto running = [&](OpBuilder &nb, Value iv) -> Value {
    Value below = arith::CmpIOp::create(nb, loc, predicate, iv, upper);
    return outer ? arith::AndIOp::create(nb, loc, below, outer).getResult()
                 : below;
  };
  bool emitted = true;
  auto whileLoop = scf::WhileOp::create(
      b, loc, carried, inits,
      [&](OpBuilder &nb, Location, ValueRange args) {
        scf::ConditionOp::create(nb, loc,
                                 anyLane(nb, loc, running(nb, args[0])), args);
      },
      [&](OpBuilder &nb, Location, ValueRange args) {
        Value iv = args[0];
        mapResult(loop.getInductionVar(), iv, /*asLanes=*/true);
        if (start)
          firstLane[iv] = args.back();
        ValueRange before = args.slice(1, types.size());
        for (auto [arg, value] :
             llvm::zip_equal(loop.getRegionIterArgs(), before))
          mapResult(arg, value, /*asLanes=*/true);
        Value active = running(nb, iv);
        mask = active;
        FailureOr<SmallVector<Value>> yielded =
            emitRegion(*loop.getBody(), nb, types);
        mask = outer;
        emitted = succeeded(yielded);
        if (!emitted) {
          scf::YieldOp::create(nb, loc, args);
          return;
        }
        // A lane that left the loop keeps its induction variable, which
        // stays past the bound (adding to it could wrap around below it).
        SmallVector<Value> next = {arith::SelectOp::create(
            nb, loc, active,
            arith::AddIOp::create(
                nb, loc, iv,
                vector::BroadcastOp::create(nb, loc, iv.getType(), step)),
            iv)};
        for (auto [value, old] : llvm::zip_equal(*yielded, before))
          next.push_back(arith::SelectOp::create(nb, loc, active, value, old));
        if (start)
          next.push_back(arith::AddIOp::create(nb, loc, args.back(), step));
        scf::YieldOp::create(nb, loc, next);
      });
  if (!emitted)
    return failure();
  for (auto [result, value] : llvm::zip_equal(
           loop.getResults(), whileLoop.getResults().slice(1, types.size())))
    mapResult(result, value, /*asLanes=*/true);
  return success();
}

} // namespace gpu_runner
