//===- DeviceOpsToHost.cpp - The gpu ops of host kernels, op by op --------===//
//
// Step 3 of gpu-runner-host-kernels (HostKernelSteps.h), one rewrite pattern
// per op as upstream's lowerings of the gpu dialect to NVVM are written. The
// id and size ops read the thread function's implicit arguments; the lane
// and subgroup numbers are computed once, at the top of each thread
// function, where every thread can see them; barriers, shuffles, broadcasts
// and warp synchronizations call the host runtime, where the lanes meet.
//
// The driver hands the patterns exactly the ops they must lower. A pattern
// fails only with an error at its op, for the user; an op that no pattern
// takes is an error too.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostKernelSteps.h"

#include "lowering/AssertSource.h"
#include "lowering/host/ScalarBits.h"
#include "lowering/runtime/MgpuCalls.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// What the patterns of one thread function read: its implicit arguments,
/// and the values computed once at its top.
struct ThreadValues {
  Block *entry = nullptr;
  /// The thread's linear id in its block, and its lane as an index and as
  /// an i32.
  Value linear, lane, lane32;
  Value subgroupSize;
  /// The threads of the block, and the lanes of this thread's subgroup:
  /// fewer than the subgroup size in the partial last subgroup of a block
  /// whose size is not a multiple of it.
  Value threads, laneCount;

  Value argument(unsigned i) const { return entry->getArgument(i); }
  Value context() const { return argument(kContextArg); }
};

/// The ThreadValues of each thread function, by function.
using ThreadValuesMap = llvm::DenseMap<Operation *, ThreadValues>;

ThreadValues createThreadValues(func::FuncOp function) {
  ThreadValues thread;
  thread.entry = &function.getBody().front();
  auto argument = [&](unsigned i) { return thread.argument(i); };
  OpBuilder b = OpBuilder::atBlockBegin(thread.entry);
  Location loc = function.getLoc();
  thread.linear = arith::AddIOp::create(
      b, loc, argument(kThreadIdArg),
      arith::MulIOp::create(
          b, loc, argument(kBlockDimArg),
          arith::AddIOp::create(
              b, loc, argument(kThreadIdArg + 1),
              arith::MulIOp::create(b, loc, argument(kBlockDimArg + 1),
                                    argument(kThreadIdArg + 2)))));
  thread.subgroupSize = constantIndex(b, loc, kHostSubgroupSize);
  thread.lane =
      arith::RemUIOp::create(b, loc, thread.linear, thread.subgroupSize);
  thread.lane32 =
      arith::IndexCastOp::create(b, loc, b.getI32Type(), thread.lane);
  thread.threads = arith::MulIOp::create(
      b, loc, argument(kBlockDimArg),
      arith::MulIOp::create(b, loc, argument(kBlockDimArg + 1),
                            argument(kBlockDimArg + 2)));
  thread.laneCount = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::MinUIOp::create(
          b, loc, thread.subgroupSize,
          arith::SubIOp::create(
              b, loc, thread.threads,
              arith::SubIOp::create(b, loc, thread.linear, thread.lane))));
  return thread;
}

/// Whether `op` calls another device function, which takes the implicit
/// arguments too.
bool callsDeviceFunction(Operation *op, const SymbolTable &symbols) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto target = symbols.lookup<func::FuncOp>(call.getCalleeAttr().getAttr());
  return target && target->hasAttr(kDeviceCopyAttrName);
}

/// Base of the patterns: the values of the thread function an op is in.
template <typename OpTy> class ThreadOpPattern : public OpRewritePattern<OpTy> {
public:
  ThreadOpPattern(MLIRContext *context, const ThreadValuesMap &threads)
      : OpRewritePattern<OpTy>(context), threads(threads) {}

protected:
  const ThreadValues &getThread(Operation *op) const {
    return threads.find(op->getParentOfType<func::FuncOp>())->second;
  }

private:
  const ThreadValuesMap &threads;
};

/// The implicit argument that holds what an id or size op reads.
template <typename OpTy> unsigned getIdArgument(OpTy op) {
  unsigned first = std::is_same_v<OpTy, gpu::ThreadIdOp>   ? kThreadIdArg
                   : std::is_same_v<OpTy, gpu::BlockIdOp>  ? kBlockIdArg
                   : std::is_same_v<OpTy, gpu::BlockDimOp> ? kBlockDimArg
                                                           : kGridDimArg;
  return first + getDimension(op.getDimension());
}

/// gpu.thread_id, gpu.block_id, gpu.block_dim and gpu.grid_dim: an implicit
/// argument.
template <typename OpTy> class IdOpLowering : public ThreadOpPattern<OpTy> {
public:
  using ThreadOpPattern<OpTy>::ThreadOpPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, this->getThread(op).argument(getIdArgument(op)));
    return success();
  }
};

/// The cluster ops, as CUDA's registers: the blocks per cluster come from
/// the launch (1 without clusters), the rest from the block id and the
/// grid, which is made of whole clusters.
template <typename OpTy>
class ClusterOpLowering : public ThreadOpPattern<OpTy> {
public:
  using ThreadOpPattern<OpTy>::ThreadOpPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    const ThreadValues &thread = this->getThread(op);
    Location loc = op.getLoc();
    unsigned d = getDimension(op.getDimension());
    Value blocks = loadContextIndex(rewriter, loc, thread.context(),
                                    kContextClusterDim + int32_t(d));
    Value value = blocks;
    if constexpr (std::is_same_v<OpTy, gpu::ClusterIdOp>)
      value = arith::DivUIOp::create(rewriter, loc,
                                     thread.argument(kBlockIdArg + d), blocks);
    else if constexpr (std::is_same_v<OpTy, gpu::ClusterDimOp>)
      value = arith::DivUIOp::create(rewriter, loc,
                                     thread.argument(kGridDimArg + d), blocks);
    else if constexpr (std::is_same_v<OpTy, gpu::ClusterBlockIdOp>)
      value = arith::RemUIOp::create(rewriter, loc,
                                     thread.argument(kBlockIdArg + d), blocks);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// gpu.global_id: the block's first thread plus the thread id.
class GlobalIdOpLowering : public ThreadOpPattern<gpu::GlobalIdOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::GlobalIdOp op,
                                PatternRewriter &rewriter) const override {
    const ThreadValues &thread = getThread(op);
    Location loc = op.getLoc();
    unsigned d = getDimension(op.getDimension());
    Value global = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, thread.argument(kBlockIdArg + d),
                              thread.argument(kBlockDimArg + d)),
        thread.argument(kThreadIdArg + d));
    rewriter.replaceOp(op, global);
    return success();
  }
};

/// gpu.lane_id, gpu.subgroup_id, gpu.subgroup_size and gpu.num_subgroups:
/// from the linear thread id, in subgroups of kHostSubgroupSize.
class LaneIdOpLowering : public ThreadOpPattern<gpu::LaneIdOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::LaneIdOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, getThread(op).lane);
    return success();
  }
};

class SubgroupIdOpLowering : public ThreadOpPattern<gpu::SubgroupIdOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::SubgroupIdOp op,
                                PatternRewriter &rewriter) const override {
    const ThreadValues &thread = getThread(op);
    Value id = arith::DivUIOp::create(rewriter, op.getLoc(), thread.linear,
                                      thread.subgroupSize);
    rewriter.replaceOp(op, id);
    return success();
  }
};

class SubgroupSizeOpLowering : public ThreadOpPattern<gpu::SubgroupSizeOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::SubgroupSizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, getThread(op).subgroupSize);
    return success();
  }
};

class NumSubgroupsOpLowering : public ThreadOpPattern<gpu::NumSubgroupsOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::NumSubgroupsOp op,
                                PatternRewriter &rewriter) const override {
    const ThreadValues &thread = getThread(op);
    Value count = arith::CeilDivUIOp::create(
        rewriter, op.getLoc(), thread.threads, thread.subgroupSize);
    rewriter.replaceOp(op, count);
    return success();
  }
};

/// gpu.barrier: a call of the runtime, where the block's threads meet.
class BarrierOpLowering : public ThreadOpPattern<gpu::BarrierOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::BarrierOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value location = getConstantString(rewriter, loc, getRuntimeLocation(op));
    if (failed(createMgpuCall(rewriter, loc, MgpuFunction::mgpuHostBarrierAt,
                              {getThread(op).context(), location})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// Moves `value` between lanes by `call`, a runtime call that takes and
/// returns one scalar's bits as an i64: a vector goes element by element,
/// which keeps every element type (index included) and any vector size
/// simple. Values of more than 64 bits are refused at `op`, which `what`
/// names in the plural.
FailureOr<Value>
moveThroughRuntime(OpBuilder &b, Operation *op, Value value, StringRef what,
                   function_ref<FailureOr<LLVM::CallOp>(Value)> call) {
  Location loc = op->getLoc();
  auto moveScalar = [&](Value value) -> FailureOr<Value> {
    Value asBits = scalarToBits(b, loc, value);
    Type bitsType = asBits.getType();
    unsigned bits = bitsType.getIntOrFloatBitWidth();
    if (bits < 64)
      asBits = arith::ExtUIOp::create(b, loc, b.getI64Type(), asBits);
    FailureOr<LLVM::CallOp> called = call(asBits);
    if (failed(called))
      return failure();
    Value result = called->getResult();
    if (bits < 64)
      result = arith::TruncIOp::create(b, loc, bitsType, result);
    return scalarFromBits(b, loc, result, value.getType());
  };

  auto vectorType = dyn_cast<VectorType>(value.getType());
  Type elementType = vectorType ? vectorType.getElementType() : value.getType();
  if (!elementType.isIndex() && elementType.getIntOrFloatBitWidth() > 64)
    return op->emitError() << what
                           << " of more than 64 bits are not supported on the "
                              "host backend";
  if (!vectorType)
    return moveScalar(value);
  Value result = value;
  for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i) {
    Value element = vector::ExtractOp::create(b, loc, value, i);
    FailureOr<Value> one = moveScalar(element);
    if (failed(one))
      return failure();
    result = vector::InsertOp::create(b, loc, *one, result, i);
  }
  return result;
}

/// gpu.shuffle: every lane calls the runtime, valid or not, since the call
/// is where the lanes meet; the lane keeps its own value where the shuffle
/// is not valid.
class ShuffleOpLowering : public ThreadOpPattern<gpu::ShuffleOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    const ThreadValues &thread = getThread(op);
    Location loc = op.getLoc();
    Value lane = thread.lane32, width = op.getWidth();
    Value source = getSourceLane(rewriter, op, lane);
    // Valid when this lane takes part (lane < width) and its source is one
    // of the lanes that do and exists: the partial last subgroup of a block
    // has only `laneCount` lanes. Otherwise the lane keeps its own value.
    Value zero = constantI32(rewriter, loc, 0);
    auto lessThan = [&](Value x, Value y) {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, x,
                                   y);
    };
    Value valid = arith::AndIOp::create(
        rewriter, loc, lessThan(lane, width),
        arith::AndIOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                  source, zero),
            arith::AndIOp::create(rewriter, loc, lessThan(source, width),
                                  lessThan(source, thread.laneCount))));
    Value sourceLane =
        arith::SelectOp::create(rewriter, loc, valid, source, zero);
    Value location = getConstantString(rewriter, loc, getRuntimeLocation(op));
    std::optional<NamedAttribute> sourceAttr = getSourceAttr(rewriter, op);

    FailureOr<Value> shuffled = moveThroughRuntime(
        rewriter, op, op.getValue(), "shuffles", [&](Value bits) {
          FailureOr<LLVM::CallOp> call = createMgpuCall(
              rewriter, loc, MgpuFunction::mgpuHostShuffleAt,
              {thread.context(), bits, sourceLane, width, location});
          if (succeeded(call) && sourceAttr)
            (*call)->setAttr(sourceAttr->getName(), sourceAttr->getValue());
          return call;
        });
    if (failed(shuffled))
      return failure();
    Value result =
        arith::SelectOp::create(rewriter, loc, valid, *shuffled, op.getValue());
    rewriter.replaceOp(op, ValueRange{result, valid});
    return success();
  }

private:
  /// The lane `lane` reads from, by the shuffle's mode.
  static Value getSourceLane(OpBuilder &b, gpu::ShuffleOp op, Value lane) {
    Location loc = op.getLoc();
    Value offset = op.getOffset();
    switch (op.getMode()) {
    case gpu::ShuffleMode::XOR:
      return arith::XOrIOp::create(b, loc, lane, offset);
    case gpu::ShuffleMode::DOWN:
      return arith::AddIOp::create(b, loc, lane, offset);
    case gpu::ShuffleMode::UP:
      return arith::SubIOp::create(b, loc, lane, offset);
    case gpu::ShuffleMode::IDX:
      return offset;
    }
    llvm_unreachable("unknown shuffle mode");
  }

  /// Where the source lane is the lane xor, plus or minus a constant, the
  /// attribute of the runtime call that says so (SplitEmission.cpp reads
  /// it).
  static std::optional<NamedAttribute> getSourceAttr(OpBuilder &b,
                                                     gpu::ShuffleOp op) {
    APInt constantOffset;
    if (!matchPattern(op.getOffset(), m_ConstantInt(&constantOffset)))
      return std::nullopt;
    int32_t c = static_cast<int32_t>(constantOffset.getSExtValue());
    switch (op.getMode()) {
    case gpu::ShuffleMode::XOR:
      return b.getNamedAttr(kShuffleLaneXorAttrName, b.getI32IntegerAttr(c));
    case gpu::ShuffleMode::DOWN:
      return b.getNamedAttr(kShuffleLaneShiftAttrName, b.getI32IntegerAttr(c));
    case gpu::ShuffleMode::UP:
      return b.getNamedAttr(kShuffleLaneShiftAttrName, b.getI32IntegerAttr(-c));
    case gpu::ShuffleMode::IDX:
      return std::nullopt;
    }
    llvm_unreachable("unknown shuffle mode");
  }
};

/// gpu.subgroup_broadcast: a runtime call that completes among the lanes
/// that wait at it; lane -1 asks the runtime for the first active lane.
class SubgroupBroadcastOpLowering
    : public ThreadOpPattern<gpu::SubgroupBroadcastOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::SubgroupBroadcastOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value context = getThread(op).context();
    Value lane = op.getBroadcastType() == gpu::BroadcastType::specific_lane
                     ? op.getLane()
                     : constantI32(rewriter, loc, -1);
    Value location = getConstantString(rewriter, loc, getRuntimeLocation(op));
    FailureOr<Value> result = moveThroughRuntime(
        rewriter, op, op.getSrc(), "broadcasts", [&](Value bits) {
          return createMgpuCall(rewriter, loc,
                                MgpuFunction::mgpuHostBroadcastAt,
                                {context, bits, lane, location});
        });
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// The nvvm.bar.warp.sync of gpu-runner-lower-warp-execute: the lanes of
/// the subgroup that can reach it meet as at a broadcast (from the first
/// active lane), whose value no one reads.
class WarpSyncLowering : public ThreadOpPattern<NVVM::SyncWarpOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(NVVM::SyncWarpOp op,
                                PatternRewriter &rewriter) const override {
    if (!isWarpSync(op))
      return rewriter.notifyMatchFailure(op, "not a warp's synchronization");
    Location loc = op.getLoc();
    Value location = getConstantString(rewriter, loc, getRuntimeLocation(op));
    Value nothing = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
    if (failed(createMgpuCall(rewriter, loc, MgpuFunction::mgpuHostBroadcastAt,
                              {getThread(op).context(), nothing,
                               constantI32(rewriter, loc, -1), location})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// gpu.printf: C's printf, with C's default argument promotions, as a
/// variadic call expects them.
class PrintfOpLowering : public ThreadOpPattern<gpu::PrintfOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::PrintfOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto printf = LLVM::lookupOrCreateFn(
        rewriter, op->getParentOfType<ModuleOp>(), "printf",
        {LLVM::LLVMPointerType::get(rewriter.getContext())},
        rewriter.getI32Type(), /*isVarArg=*/true);
    if (failed(printf))
      return op.emitError() << "cannot declare printf";
    SmallVector<Value> args = {
        getConstantString(rewriter, loc, op.getFormat())};
    for (Value arg : op.getArgs()) {
      Type type = arg.getType();
      if (type.isIndex())
        arg = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                         arg);
      else if (auto floatType = dyn_cast<FloatType>(type);
               floatType && floatType.getWidth() < 64)
        arg = arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), arg);
      else if (type.isInteger(1))
        arg = arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), arg);
      else if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
        arg = arith::ExtSIOp::create(rewriter, loc, rewriter.getI32Type(), arg);
      args.push_back(arg);
    }
    LLVM::CallOp::create(rewriter, loc, *printf, args);
    rewriter.eraseOp(op);
    return success();
  }
};

/// cf.assert: the runtime records the thread's failure and ends the thread.
/// It never returns, so nothing after the call runs for a thread that
/// failed; a passing assertion costs the branch.
class AssertOpLowering : public ThreadOpPattern<cf::AssertOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(cf::AssertOp op,
                                PatternRewriter &rewriter) const override {
    const ThreadValues &thread = getThread(op);
    Location loc = op.getLoc();
    Value fails = arith::XOrIOp::create(
        rewriter, loc, op.getArg(),
        arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    auto ifOp =
        scf::IfOp::create(rewriter, loc, fails, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    AssertSource source = getAssertSource(loc);
    SmallVector<Value> args = {thread.context()};
    for (Value id : thread.entry->getArguments().slice(kThreadIdArg, 3))
      args.push_back(
          arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), id));
    args.push_back(getConstantString(rewriter, loc, op.getMsg()));
    args.push_back(getConstantString(rewriter, loc, source.file));
    args.push_back(constantI32(rewriter, loc, source.line));
    args.push_back(getConstantString(rewriter, loc, source.function));
    if (failed(createMgpuCall(rewriter, loc, MgpuFunction::mgpuHostAssertFailAt,
                              args)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// gpu.dynamic_shared_memory: a view of the launch's dynamic workgroup
/// memory, whose address and size the context holds.
class DynamicSharedMemoryOpLowering
    : public ThreadOpPattern<gpu::DynamicSharedMemoryOp> {
public:
  DynamicSharedMemoryOpLowering(MLIRContext *context,
                                const ThreadValuesMap &threads,
                                const LLVMTypeConverter &converter)
      : ThreadOpPattern(context, threads), converter(converter) {}

  LogicalResult matchAndRewrite(gpu::DynamicSharedMemoryOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value context = getThread(op).context();
    Value pointer =
        loadContextPointer(rewriter, loc, context, kContextDynamicSharedMemory);
    Value bytes = LLVM::LoadOp::create(
        rewriter, loc, rewriter.getI64Type(),
        getContextSlot(rewriter, loc, context, kContextDynamicSharedBytes));
    rewriter.replaceOp(op,
                       createMemRefOverPointer(rewriter, loc, converter,
                                               op.getType(), pointer, bytes));
    return success();
  }

private:
  const LLVMTypeConverter &converter;
};

/// gpu.return: the thread function returns.
class ReturnOpLowering : public ThreadOpPattern<gpu::ReturnOp> {
public:
  using ThreadOpPattern::ThreadOpPattern;

  LogicalResult matchAndRewrite(gpu::ReturnOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, op.getOperands());
    return success();
  }
};

/// A call of another device function passes the implicit arguments on.
class DeviceCallLowering : public ThreadOpPattern<func::CallOp> {
public:
  DeviceCallLowering(MLIRContext *context, const ThreadValuesMap &threads,
                     const SymbolTable &symbols)
      : ThreadOpPattern(context, threads), symbols(symbols) {}

  LogicalResult matchAndRewrite(func::CallOp op,
                                PatternRewriter &rewriter) const override {
    if (!callsDeviceFunction(op, symbols))
      return rewriter.notifyMatchFailure(op, "not a call of a device function");
    auto target = symbols.lookup<func::FuncOp>(op.getCalleeAttr().getAttr());
    SmallVector<Value> operands(
        getThread(op).entry->getArguments().take_front(kImplicitArgCount));
    operands.append(op.getOperands().begin(), op.getOperands().end());
    auto call = func::CallOp::create(rewriter, op.getLoc(), target, operands);
    rewriter.replaceOp(op, call.getResults());
    return success();
  }

private:
  const SymbolTable &symbols;
};

void populateDeviceOpsToHostPatterns(RewritePatternSet &patterns,
                                     const ThreadValuesMap &threads,
                                     const LLVMTypeConverter &converter,
                                     const SymbolTable &symbols) {
  MLIRContext *context = patterns.getContext();
  patterns.add<IdOpLowering<gpu::ThreadIdOp>, IdOpLowering<gpu::BlockIdOp>,
               IdOpLowering<gpu::BlockDimOp>, IdOpLowering<gpu::GridDimOp>,
               ClusterOpLowering<gpu::ClusterIdOp>,
               ClusterOpLowering<gpu::ClusterDimOp>,
               ClusterOpLowering<gpu::ClusterDimBlocksOp>,
               ClusterOpLowering<gpu::ClusterBlockIdOp>, GlobalIdOpLowering,
               LaneIdOpLowering, SubgroupIdOpLowering, SubgroupSizeOpLowering,
               NumSubgroupsOpLowering, BarrierOpLowering, ShuffleOpLowering,
               SubgroupBroadcastOpLowering, WarpSyncLowering, PrintfOpLowering,
               AssertOpLowering, ReturnOpLowering>(context, threads);
  patterns.add<DynamicSharedMemoryOpLowering>(context, threads, converter);
  patterns.add<DeviceCallLowering>(context, threads, symbols);
}

/// Whether a pattern here must lower `op`: every op of the gpu dialect, and
/// the cf.asserts, warp synchronizations and device function calls.
bool mustLower(Operation *op, const SymbolTable &symbols) {
  return isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
         isa<cf::AssertOp>(op) || isWarpSync(op) ||
         callsDeviceFunction(op, symbols);
}

} // namespace

LogicalResult lowerDeviceOps(HostKernelModule &module,
                             const LLVMTypeConverter &converter) {
  MLIRContext *context = module.getHostModule().getContext();
  const SymbolTable &symbols = module.getSymbols();
  ThreadValuesMap threads;
  RewritePatternSet patterns(context);
  populateDeviceOpsToHostPatterns(patterns, threads, converter, symbols);
  FrozenRewritePatternSet frozenPatterns(std::move(patterns));
  PatternApplicator applicator(frozenPatterns);
  applicator.applyDefaultCostModel();
  PatternRewriter rewriter(context);

  for (auto [function, copy] : module.copies) {
    threads[copy] = createThreadValues(copy);
    // Each op once, in the order of a walk; what the patterns make is not
    // visited.
    SmallVector<Operation *> ops;
    copy.walk([&](Operation *op) {
      if (mustLower(op, symbols))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      bool refused = false;
      if (succeeded(applicator.matchAndRewrite(
              op, rewriter, /*canApply=*/{},
              /*onFailure=*/[&](const Pattern &) { refused = true; })))
        continue;
      // A pattern that took the op and failed said why, at the op.
      if (!refused)
        op->emitError() << "'" << op->getName()
                        << "' is not supported in kernels on the host backend";
      return failure();
    }
  }
  return success();
}

} // namespace gpu_runner
