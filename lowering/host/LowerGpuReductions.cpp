//===- LowerGpuReductions.cpp - Reductions to shuffles and barriers -------===//
//
// gpu.all_reduce and gpu.subgroup_reduce become xor butterflies of
// gpu.shuffle, gpu.all_reduce with a workgroup buffer between barriers.
// Upstream's rewrites do the same but assume full subgroups (a subgroup
// reduction in a block of 4 threads counts the 28 missing lanes too) and
// build gpu.all_reduce out of blocks and branches, which only works at the
// top level of a kernel; these are built of scf ops, so they run anywhere
// in uniform control flow, and reduce over the lanes that exist: a block
// whose size is not a multiple of the subgroup size ends in a partial
// subgroup, whose missing lanes take no part.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gpu_runner {
#define GEN_PASS_DEF_LOWERGPUREDUCTIONS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// Combines two values of a reduction where the builder stands.
using Combiner = std::function<Value(OpBuilder &, Location, Value, Value)>;

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The caller's place in its subgroup, as index values.
struct SubgroupLanes {
  /// The thread's linear id in its block (x fastest, as a GPU numbers
  /// lanes) and the block's thread count.
  Value linear, threads;
  /// The lane id, and how many lanes of the subgroup take part: the
  /// subgroup size, fewer in the partial last subgroup of a block.
  Value lane, count;
};

SubgroupLanes getSubgroupLanes(OpBuilder &b, Location loc,
                               int64_t subgroupSize) {
  auto id = [&](gpu::Dimension d) -> Value {
    return gpu::ThreadIdOp::create(b, loc, d);
  };
  auto dim = [&](gpu::Dimension d) -> Value {
    return gpu::BlockDimOp::create(b, loc, d);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  using gpu::Dimension;
  SubgroupLanes lanes;
  lanes.linear =
      add(id(Dimension::x),
          mul(dim(Dimension::x),
              add(id(Dimension::y), mul(dim(Dimension::y), id(Dimension::z)))));
  lanes.threads =
      mul(dim(Dimension::x), mul(dim(Dimension::y), dim(Dimension::z)));
  Value size = constantIndex(b, loc, subgroupSize);
  lanes.lane = arith::RemUIOp::create(b, loc, lanes.linear, size);
  Value before = arith::SubIOp::create(b, loc, lanes.linear, lanes.lane);
  lanes.count = arith::MinUIOp::create(
      b, loc, size, arith::SubIOp::create(b, loc, lanes.threads, before));
  return lanes;
}

/// The bits of a value of `type`: an integer or float, or a vector of them.
int64_t getBitWidth(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() *
           vector.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

/// What a shuffle of a value gives: the value, and whether its source lane
/// was valid.
struct Shuffled {
  Value result, valid;
};

/// `gpu.shuffle` of `value` from lane `lane` (idx) or `lane ^ offset` (xor)
/// among the first `width` lanes of the subgroup. A value that fits
/// `bitwidth` bits, the most one shuffle moves on the target, travels as one
/// integer of 32 or 64 bits (what the targets' shuffles take); a wider one
/// as it is. The shuffle is marked with `opName`, when given, as the op a
/// runtime error names.
Shuffled shuffle(OpBuilder &b, Location loc, Value value, Value offset,
                 gpu::ShuffleMode mode, int64_t width, unsigned bitwidth,
                 StringRef opName = {}) {
  Type type = value.getType();
  Value widthValue = arith::ConstantIntOp::create(b, loc, width, 32);
  auto create = [&](Value operand) {
    auto op = gpu::ShuffleOp::create(b, loc, operand, offset, widthValue, mode);
    if (!opName.empty())
      op->setAttr(kRuntimeOpNameAttrName, b.getStringAttr(opName));
    return op;
  };
  int64_t bits = getBitWidth(type);
  if (bits > int64_t(bitwidth)) {
    auto op = create(value);
    return {op.getShuffleResult(), op.getValid()};
  }

  Type bitsType = b.getIntegerType(bits);
  Type carrier = b.getIntegerType(bits <= 32 ? 32 : 64);
  Value packed = value;
  if (isa<VectorType>(type))
    packed = vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, bitsType),
                                  value),
        int64_t{0});
  else if (type != bitsType)
    packed = arith::BitcastOp::create(b, loc, bitsType, value);
  if (bitsType != carrier)
    packed = arith::ExtUIOp::create(b, loc, carrier, packed);

  auto op = create(packed);
  Value result = op.getShuffleResult();

  if (bitsType != carrier)
    result = arith::TruncIOp::create(b, loc, bitsType, result);
  if (auto vectorType = dyn_cast<VectorType>(type))
    return {vector::BitCastOp::create(
                b, loc, vectorType,
                vector::BroadcastOp::create(
                    b, loc, VectorType::get({1}, bitsType), result)),
            op.getValid()};
  if (type != bitsType)
    result = arith::BitcastOp::create(b, loc, type, result);
  return {result, op.getValid()};
}

/// shuffle() of a value of any type rotate and broadcast take: a vector
/// wider than one shuffle moves goes element by element.
Shuffled shuffleElements(OpBuilder &b, Location loc, Value value, Value offset,
                         gpu::ShuffleMode mode, int64_t width,
                         unsigned bitwidth, StringRef opName) {
  auto vectorType = dyn_cast<VectorType>(value.getType());
  if (!vectorType || getBitWidth(vectorType) <= int64_t(bitwidth))
    return shuffle(b, loc, value, offset, mode, width, bitwidth, opName);
  Shuffled shuffled{value, Value()};
  for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i) {
    Value element = vector::ExtractOp::create(b, loc, value, i);
    Shuffled one =
        shuffle(b, loc, element, offset, mode, width, bitwidth, opName);
    shuffled.result =
        vector::InsertOp::create(b, loc, one.result, shuffled.result, i);
    // Every element comes from the same lane.
    shuffled.valid = one.valid;
  }
  return shuffled;
}

/// Reduces `value` over each cluster of `clusterSize` lanes `stride` apart
/// with an xor butterfly of shuffles. Lanes at or past `lanes.count` do not
/// exist (a GPU gives unspecified values for them), so their values are left
/// out: the first lane of each cluster ends with the reduction over the
/// cluster's lanes that exist, and in a full subgroup every lane does.
Value reduceOverLanes(OpBuilder &b, Location loc, Value value,
                      const SubgroupLanes &lanes, int64_t clusterSize,
                      int64_t stride, int64_t subgroupSize, unsigned bitwidth,
                      const Combiner &combine) {
  for (int64_t offset = stride; offset < stride * clusterSize; offset <<= 1) {
    Value shuffled =
        shuffle(b, loc, value, arith::ConstantIntOp::create(b, loc, offset, 32),
                gpu::ShuffleMode::XOR, subgroupSize, bitwidth)
            .result;
    Value source = arith::XOrIOp::create(b, loc, lanes.lane,
                                         constantIndex(b, loc, offset));
    Value exists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         source, lanes.count);
    Value current = value;
    value =
        scf::IfOp::create(
            b, loc, exists,
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(b, loc, combine(b, loc, current, shuffled));
            },
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(b, loc, current);
            })
            .getResult(0);
  }
  return value;
}

Combiner getCombiner(gpu::AllReduceOperation operation) {
  return [operation](OpBuilder &b, Location loc, Value lhs, Value rhs) {
    return vector::makeArithReduction(
        b, loc, gpu::convertReductionKind(operation), lhs, rhs);
  };
}

/// Combines through a copy of `body`, gpu.all_reduce's region, in an
/// scf.execute_region (which may hold several blocks anywhere).
Combiner getCombiner(Region &body) {
  return [&body](OpBuilder &b, Location loc, Value lhs, Value rhs) {
    auto execute =
        scf::ExecuteRegionOp::create(b, loc, TypeRange{lhs.getType()});
    IRMapping mapping;
    mapping.map(body.getArgument(0), lhs);
    mapping.map(body.getArgument(1), rhs);
    body.cloneInto(&execute.getRegion(), mapping);
    for (Block &block : execute.getRegion()) {
      auto yield = dyn_cast<gpu::YieldOp>(block.getTerminator());
      if (!yield)
        continue;
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(yield);
      scf::YieldOp::create(b, yield.getLoc(), yield.getOperands());
      yield.erase();
    }
    return execute.getResult(0);
  };
}

/// gpu.all_reduce: each subgroup reduces its values, its first lane writes
/// the result to a workgroup buffer, and after a barrier the first subgroup
/// reduces those and writes the total, which every thread reads after a
/// second barrier. The buffer has one slot per subgroup (a block has at most
/// subgroupSize^2 threads, 1024 for 32) and a separate one for the total,
/// so that in a loop the next round's partials never overwrite a total that
/// a slower thread has yet to read.
/// gpu.all_reduce where the threads run one after another: every thread
/// writes its value to a workgroup buffer, and after a barrier the block's
/// first thread combines them in thread order and writes the total after
/// them, which every thread reads after a second barrier. A later round, in
/// a loop, writes values only once every thread is past the second barrier,
/// so after every thread read the total; and its total only after its own
/// first barrier. Between barriers that every thread reaches together, the
/// host runs each step as one loop over the threads (BarrierSplitting.h).
Value createSequentialAllReduce(OpBuilder &b, Location loc, Value value,
                                gpu::GPUFuncOp kernel, int64_t subgroupSize,
                                const Combiner &combine) {
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  // A block has at most subgroupSize^2 threads (1024 for 32).
  int64_t maxThreads = subgroupSize * subgroupSize;
  Value buffer = kernel.addWorkgroupAttribution(
      MemRefType::get({maxThreads + 1}, value.getType(), AffineMap(),
                      workgroup),
      loc);
  SubgroupLanes lanes = getSubgroupLanes(b, loc, subgroupSize);
  Value zero = constantIndex(b, loc, 0);
  Value one = constantIndex(b, loc, 1);
  Value totalSlot = constantIndex(b, loc, maxThreads);
  memref::StoreOp::create(b, loc, value, buffer, lanes.linear);
  gpu::BarrierOp::create(b, loc);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      lanes.linear, zero);
  scf::IfOp::create(b, loc, first, [&](OpBuilder &b, Location loc) {
    Value initial = memref::LoadOp::create(b, loc, buffer, zero);
    auto loop = scf::ForOp::create(
        b, loc, one, lanes.threads, one, ValueRange{initial},
        [&](OpBuilder &b, Location loc, Value i, ValueRange total) {
          Value next = memref::LoadOp::create(b, loc, buffer, i);
          scf::YieldOp::create(b, loc, combine(b, loc, total[0], next));
        });
    memref::StoreOp::create(b, loc, loop.getResult(0), buffer, totalSlot);
    scf::YieldOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);
  return memref::LoadOp::create(b, loc, buffer, totalSlot);
}

LogicalResult lowerAllReduce(gpu::AllReduceOp op, int64_t subgroupSize,
                             unsigned bitwidth, bool sequentialLanes) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel || !kernel.isKernel())
    return op.emitError()
           << "'gpu.all_reduce' is supported in kernels only (a gpu.func "
              "with the kernel attribute): it combines the subgroups' "
              "results in the kernel's workgroup memory";
  Combiner combine = op.getBody().empty() ? getCombiner(*op.getOp())
                                          : getCombiner(op.getBody());
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (sequentialLanes) {
    op.replaceAllUsesWith(createSequentialAllReduce(
        b, loc, op.getValue(), kernel, subgroupSize, combine));
    op.erase();
    return success();
  }
  Type type = op.getType();
  MLIRContext *context = op.getContext();

  SubgroupLanes lanes = getSubgroupLanes(b, loc, subgroupSize);
  Value partial =
      reduceOverLanes(b, loc, op.getValue(), lanes, subgroupSize,
                      /*stride=*/1, subgroupSize, bitwidth, combine);

  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  Value buffer = kernel.addWorkgroupAttribution(
      MemRefType::get({subgroupSize + 1}, type, AffineMap(), workgroup), loc);
  Value zero = constantIndex(b, loc, 0);
  Value one = constantIndex(b, loc, 1);
  Value size = constantIndex(b, loc, subgroupSize);
  Value firstLane =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lanes.lane, zero);
  scf::IfOp::create(b, loc, firstLane, [&](OpBuilder &b, Location loc) {
    Value subgroup = arith::DivUIOp::create(b, loc, lanes.linear, size);
    memref::StoreOp::create(b, loc, partial, buffer, subgroup);
    scf::YieldOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);

  // The first subgroup, all its lanes together, reduces the partials.
  Value firstSubgroup = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              lanes.linear, size);
  scf::IfOp::create(b, loc, firstSubgroup, [&](OpBuilder &b, Location loc) {
    SubgroupLanes partials = lanes;
    partials.count = arith::CeilDivUIOp::create(b, loc, lanes.threads, size);
    // Lanes past the partials read the last one; the butterfly leaves it out.
    Value slot = arith::MinUIOp::create(
        b, loc, lanes.lane, arith::SubIOp::create(b, loc, partials.count, one));
    Value own = memref::LoadOp::create(b, loc, buffer, slot);
    Value total =
        reduceOverLanes(b, loc, own, partials, subgroupSize,
                        /*stride=*/1, subgroupSize, bitwidth, combine);
    scf::IfOp::create(b, loc, firstLane, [&](OpBuilder &b, Location loc) {
      memref::StoreOp::create(b, loc, total, buffer, size);
      scf::YieldOp::create(b, loc);
    });
    scf::YieldOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);
  Value result = memref::LoadOp::create(b, loc, buffer, size);
  op.replaceAllUsesWith(result);
  op.erase();
  return success();
}

/// gpu.subgroup_reduce whose value fits one shuffle (larger vectors are
/// broken down first): the butterfly over each cluster, then, in a partial
/// subgroup only, the result of each cluster's first lane to all its lanes.
struct SubgroupReduceToShuffles : OpRewritePattern<gpu::SubgroupReduceOp> {
  SubgroupReduceToShuffles(MLIRContext *context, int64_t subgroupSize,
                           unsigned bitwidth, bool sequentialLanes)
      : OpRewritePattern(context), subgroupSize(subgroupSize),
        bitwidth(bitwidth), sequentialLanes(sequentialLanes) {}

  LogicalResult matchAndRewrite(gpu::SubgroupReduceOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<VectorType>(type) && getBitWidth(type) > int64_t(bitwidth))
      return rewriter.notifyMatchFailure(op, "to be broken down first");
    Location loc = op.getLoc();
    int64_t clusterSize = op.getClusterSize().value_or(subgroupSize);
    int64_t stride = op.getClusterStride();
    SubgroupLanes lanes = getSubgroupLanes(rewriter, loc, subgroupSize);
    Value reduced = reduceOverLanes(rewriter, loc, op.getValue(), lanes,
                                    clusterSize, stride, subgroupSize, bitwidth,
                                    getCombiner(op.getOp()));
    Value partial = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lanes.count,
        constantIndex(rewriter, loc, subgroupSize));
    auto spread = [&](OpBuilder &b, Location loc) {
      Value clusterLanes = constantIndex(b, loc, ~((clusterSize - 1) * stride));
      Value first = arith::IndexCastOp::create(
          b, loc, b.getI32Type(),
          arith::AndIOp::create(b, loc, lanes.lane, clusterLanes));
      return shuffle(b, loc, reduced, first, gpu::ShuffleMode::IDX,
                     subgroupSize, bitwidth)
          .result;
    };
    // Every lane of a subgroup reaches the shuffle together where lanes run
    // one after another; on a GPU, only partial subgroups make it.
    Value result = sequentialLanes
                       ? arith::SelectOp::create(rewriter, loc, partial,
                                                 spread(rewriter, loc), reduced)
                             .getResult()
                       : scf::IfOp::create(
                             rewriter, loc, partial,
                             [&](OpBuilder &b, Location loc) {
                               scf::YieldOp::create(b, loc, spread(b, loc));
                             },
                             [&](OpBuilder &b, Location loc) {
                               scf::YieldOp::create(b, loc, reduced);
                             })
                             .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }

  int64_t subgroupSize;
  unsigned bitwidth;
  bool sequentialLanes;
};

/// gpu.rotate: lane k below the width reads lane (k + offset) mod width,
/// by an idx shuffle of that width. The lanes at or past the width, whose
/// result the dialect leaves poison (and `valid` false), keep their value
/// and skip the shuffle: a GPU's shuffle of fewer lanes than the subgroup
/// must be executed by those lanes only (NVIDIA's member mask names them).
struct RotateToShuffle : OpRewritePattern<gpu::RotateOp> {
  RotateToShuffle(MLIRContext *context, int64_t subgroupSize, unsigned bitwidth,
                  bool sequentialLanes)
      : OpRewritePattern(context), subgroupSize(subgroupSize),
        bitwidth(bitwidth), sequentialLanes(sequentialLanes) {}

  LogicalResult matchAndRewrite(gpu::RotateOp op,
                                PatternRewriter &rewriter) const override {
    int64_t width = op.getWidth();
    if (width > subgroupSize)
      return rewriter.notifyMatchFailure(op, "wider than a subgroup");
    Location loc = op.getLoc();
    Value value = op.getValue();
    Value lane = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI32Type(),
        getSubgroupLanes(rewriter, loc, subgroupSize).lane);
    auto rotate = [&](OpBuilder &b, Location loc) {
      Value source = arith::AndIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc, lane,
              arith::ConstantIntOp::create(b, loc, op.getOffset(), 32)),
          arith::ConstantIntOp::create(b, loc, width - 1, 32));
      return shuffleElements(b, loc, value, source, gpu::ShuffleMode::IDX,
                             width, bitwidth, op->getName().getStringRef());
    };
    // Where lanes run one after another, the lanes past the width make the
    // shuffle too: it gives them their own value and `valid` false.
    if (width == subgroupSize || sequentialLanes) {
      Shuffled rotated = rotate(rewriter, loc);
      rewriter.replaceOp(op, {rotated.result, rotated.valid});
      return success();
    }
    Value inside = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lane,
        arith::ConstantIntOp::create(rewriter, loc, width, 32));
    auto branch = scf::IfOp::create(
        rewriter, loc, inside,
        [&](OpBuilder &b, Location loc) {
          Shuffled rotated = rotate(b, loc);
          scf::YieldOp::create(b, loc,
                               ValueRange{rotated.result, rotated.valid});
        },
        [&](OpBuilder &b, Location loc) {
          Value invalid = arith::ConstantIntOp::create(b, loc, 0, 1);
          scf::YieldOp::create(b, loc, ValueRange{value, invalid});
        });
    rewriter.replaceOp(op, branch.getResults());
    return success();
  }

  int64_t subgroupSize;
  unsigned bitwidth;
  bool sequentialLanes;
};

/// gpu.subgroup_size as a constant.
struct SubgroupSizeToConstant : OpRewritePattern<gpu::SubgroupSizeOp> {
  SubgroupSizeToConstant(MLIRContext *context, int64_t size)
      : OpRewritePattern(context), size(size) {}
  LogicalResult matchAndRewrite(gpu::SubgroupSizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, size);
    return success();
  }
  int64_t size;
};

/// gpu.num_subgroups: the block's threads in subgroups, the last one
/// possibly partial.
struct NumSubgroupsFromBlockSize : OpRewritePattern<gpu::NumSubgroupsOp> {
  NumSubgroupsFromBlockSize(MLIRContext *context, int64_t size)
      : OpRewritePattern(context), size(size) {}
  LogicalResult matchAndRewrite(gpu::NumSubgroupsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value threads = gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
    for (gpu::Dimension dimension : {gpu::Dimension::y, gpu::Dimension::z})
      threads = arith::MulIOp::create(
          rewriter, loc, threads,
          gpu::BlockDimOp::create(rewriter, loc, dimension));
    Value subgroup = arith::ConstantIndexOp::create(rewriter, loc, size);
    rewriter.replaceOpWithNewOp<arith::CeilDivUIOp>(op, threads, subgroup);
    return success();
  }
  int64_t size;
};

class LowerGpuReductionsPass
    : public impl::LowerGpuReductionsBase<LowerGpuReductionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    int64_t size = subgroupSize;
    if (failed(checkClusters(size)) || failed(checkSubgroupOps(size)))
      return signalPassFailure();
    SmallVector<gpu::AllReduceOp> allReduces;
    getOperation().walk([&](gpu::AllReduceOp op) { allReduces.push_back(op); });
    for (gpu::AllReduceOp op : allReduces)
      if (failed(lowerAllReduce(op, size, shuffleBitwidth, sequentialLanes)))
        return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateGpuGlobalIdPatterns(patterns);
    if (lowerSubgroupId) {
      populateGpuSubgroupIdPatterns(patterns);
      // What that rewrite leaves: the subgroup size.
      patterns.add<SubgroupSizeToConstant>(&getContext(), size);
      // The block's threads in subgroups, the last one possibly partial.
      patterns.add<NumSubgroupsFromBlockSize>(&getContext(), size);
    }
    populateGpuBreakDownSubgroupReducePatterns(patterns, shuffleBitwidth);
    patterns.add<SubgroupReduceToShuffles, RotateToShuffle>(
        &getContext(), size, shuffleBitwidth, sequentialLanes);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }

private:
  /// What the verifier lets through but no target can do: a rotation wider
  /// than a subgroup, a broadcast from a lane outside it, and values that
  /// are not numbers of at most 64 bits (or vectors of rank 1 of those).
  LogicalResult checkSubgroupOps(int64_t size) {
    auto isMovable = [](Type type) {
      if (auto vector = dyn_cast<VectorType>(type)) {
        if (vector.getRank() != 1 || vector.isScalable())
          return false;
        type = vector.getElementType();
      }
      return type.isIndex() ||
             (type.isIntOrFloat() && type.getIntOrFloatBitWidth() <= 64);
    };
    auto checkType = [&](Operation *op, Type type) -> LogicalResult {
      if (isMovable(type))
        return success();
      return op->emitError()
             << "'" << op->getName() << "' cannot move a value of type " << type
             << " between lanes: it takes integers, floats and index of at "
                "most 64 bits, and vectors of rank 1 of those";
    };
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (auto rotate = dyn_cast<gpu::RotateOp>(op)) {
        if (failed(checkType(op, rotate.getValue().getType())))
          return WalkResult::interrupt();
        if (rotate.getWidth() <= size)
          return WalkResult::advance();
        rotate.emitError() << "a rotation of width " << rotate.getWidth()
                           << " does not fit in a subgroup of " << size
                           << " lanes";
        return WalkResult::interrupt();
      }
      auto broadcast = dyn_cast<gpu::SubgroupBroadcastOp>(op);
      if (!broadcast)
        return WalkResult::advance();
      if (failed(checkType(op, broadcast.getSrc().getType())))
        return WalkResult::interrupt();
      APInt lane;
      if (!broadcast.getLane() ||
          !matchPattern(broadcast.getLane(), m_ConstantInt(&lane)) ||
          (lane.getSExtValue() >= 0 && lane.getSExtValue() < size))
        return WalkResult::advance();
      broadcast.emitError()
          << "lane " << lane.getSExtValue() << " is not in the subgroup of "
          << size << " lanes (0 to " << size - 1
          << "): the broadcast's result would be poison";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  /// A cluster must fit in a subgroup.
  LogicalResult checkClusters(int64_t size) {
    WalkResult result = getOperation().walk([&](gpu::SubgroupReduceOp op) {
      std::optional<uint32_t> clusterSize = op.getClusterSize();
      if (!clusterSize || int64_t(*clusterSize) * op.getClusterStride() <= size)
        return WalkResult::advance();
      op.emitError() << "a cluster of " << *clusterSize << " lanes "
                     << op.getClusterStride()
                     << " apart does not fit in a subgroup of " << size
                     << " lanes";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }
};

} // namespace
} // namespace gpu_runner
