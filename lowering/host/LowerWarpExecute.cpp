//===- LowerWarpExecute.cpp - gpu.warp_execute_on_lane_0 for every target -===//
//
// See the description of gpu-runner-lower-warp-execute in Passes.td. The
// rewrite itself is upstream's (vector distribution's lowering of the op to
// scf.if); this pass gives it what it leaves to its user: a buffer for each
// value that crosses between the lanes and lane 0, one per warp of the
// block, in workgroup memory, and the synchronization of a warp on each
// target.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorDistribution.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"

namespace gpu_runner {
#define GEN_PASS_DEF_LOWERWARPEXECUTE
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// The most threads a block has on every target.
constexpr int64_t kMaxBlockThreads = 1024;

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The position of the calling thread in its block, x fastest, and the
/// number of threads of the block.
std::pair<Value, Value> getLinearThreadId(OpBuilder &b, Location loc) {
  const gpu::Dimension dimensions[] = {gpu::Dimension::x, gpu::Dimension::y,
                                       gpu::Dimension::z};
  Value id[3], size[3];
  for (auto [i, dimension] : llvm::enumerate(dimensions)) {
    id[i] = gpu::ThreadIdOp::create(b, loc, dimension);
    size[i] = gpu::BlockDimOp::create(b, loc, dimension);
  }
  Value linear = arith::AddIOp::create(
      b, loc, id[0],
      arith::MulIOp::create(
          b, loc, size[0],
          arith::AddIOp::create(
              b, loc, id[1], arith::MulIOp::create(b, loc, size[1], id[2]))));
  Value threads = arith::MulIOp::create(
      b, loc, size[0], arith::MulIOp::create(b, loc, size[1], size[2]));
  return {linear, threads};
}

class LowerWarpExecutePass
    : public impl::LowerWarpExecuteBase<LowerWarpExecutePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (target != "host" && target != "nvvm" && target != "rocdl") {
      getOperation().emitError()
          << "gpu-runner-lower-warp-execute: unknown target '" << target
          << "': expected host, nvvm or rocdl";
      return signalPassFailure();
    }
    SmallVector<gpu::WarpExecuteOnLane0Op> warps;
    getOperation().walk(
        [&](gpu::WarpExecuteOnLane0Op op) { warps.push_back(op); });
    // The buffers of each op, in the order the rewrite asks for them: one
    // per operand, then one per result.
    llvm::DenseMap<Operation *, SmallVector<Value>> buffers;
    llvm::DenseMap<Operation *, unsigned> used;
    for (gpu::WarpExecuteOnLane0Op op : warps) {
      if (failed(prepare(op, buffers[op])))
        return signalPassFailure();
    }

    vector::WarpExecuteOnLane0LoweringOptions options;
    options.warpAllocationFn =
        [&](Location, OpBuilder &, gpu::WarpExecuteOnLane0Op op,
            Type) -> Value { return buffers[op][used[op]++]; };
    options.warpSyncronizationFn = [&](Location loc, OpBuilder &b,
                                       gpu::WarpExecuteOnLane0Op op) {
      synchronize(b, loc, op);
    };
    RewritePatternSet patterns(&getContext());
    vector::populateWarpExecuteOnLane0OpToScfForPattern(patterns, options);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }

private:
  LogicalResult prepare(gpu::WarpExecuteOnLane0Op op,
                        SmallVectorImpl<Value> &buffers);
  Value createBuffer(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                     int64_t slots, Value slot, Type type);
  void synchronize(OpBuilder &b, Location loc, gpu::WarpExecuteOnLane0Op op);
};

LogicalResult LowerWarpExecutePass::prepare(gpu::WarpExecuteOnLane0Op op,
                                            SmallVectorImpl<Value> &buffers) {
  int64_t warpSize = op.getWarpSize();
  if (warpSize > subgroupSize || subgroupSize % warpSize != 0)
    return op.emitError()
           << "a warp of " << warpSize
           << " lanes is not supported: its lanes exchange values through "
              "memory between synchronizations of one subgroup, so a warp "
              "must be the target's subgroup of "
           << subgroupSize.getValue() << " lanes or divide it";
  if (op->getParentOfType<gpu::WarpExecuteOnLane0Op>())
    return op.emitError()
           << "a gpu.warp_execute_on_lane_0 inside another is not supported: "
              "only lane 0 runs the outer one's body";
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel || !kernel.isKernel())
    return op.emitError()
           << "gpu.warp_execute_on_lane_0 is supported in the body of a "
              "gpu.func kernel only, whose workgroup memory carries the "
              "values between the lanes; inline the function that holds it "
              "into the kernel";

  // One slot of each buffer per warp the block may have: the block size the
  // kernel declares, or the most threads a block has.
  int64_t threads = kMaxBlockThreads;
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    threads = 1;
    for (int32_t size : *known)
      threads *= size;
  }
  int64_t slots = llvm::divideCeil(threads, warpSize);

  Location loc = op.getLoc();
  OpBuilder b(op);
  // The lane id must be below the warp size (GPUOps.td,
  // WarpExecuteOnLane0Op): another would reach past its warp's slots, and
  // gpu.lane_id is not, where subgroups are wider than the warp. The
  // program fails there, as at any failed assertion.
  Value inWarp =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, op.getLaneid(),
                            constantIndex(b, loc, warpSize));
  cf::AssertOp::create(b, loc, inWarp,
                       "gpu.warp_execute_on_lane_0's lane id is not below its "
                       "warp size, " +
                           std::to_string(warpSize));
  Value slot = arith::DivUIOp::create(b, loc, getLinearThreadId(b, loc).first,
                                      constantIndex(b, loc, warpSize));
  for (BlockArgument argument : op.getBody()->getArguments())
    buffers.push_back(
        createBuffer(b, loc, kernel, slots, slot, argument.getType()));
  auto yield = cast<gpu::YieldOp>(op.getBody()->getTerminator());
  for (Type type : yield.getOperandTypes())
    buffers.push_back(createBuffer(b, loc, kernel, slots, slot, type));
  // The rewrite synchronizes before lane 0 runs the body only when there
  // are operands. Without, lane 0 of the next run of the op (in a loop)
  // could overwrite results the other lanes have not read yet.
  if (op.getArgs().empty() && !op.getResults().empty())
    synchronize(b, loc, op);
  return success();
}

/// A buffer for a value of `type`, as the rewrite expects it (a memref of
/// the vector's shape, or of one element for a scalar): the slot `slot` of
/// a new workgroup attribution of `kernel` with `slots` of them.
Value LowerWarpExecutePass::createBuffer(OpBuilder &b, Location loc,
                                         gpu::GPUFuncOp kernel, int64_t slots,
                                         Value slot, Type type) {
  SmallVector<int64_t> shape{1};
  Type elementType = type;
  if (auto vector = dyn_cast<VectorType>(type)) {
    shape.assign(vector.getShape().begin(), vector.getShape().end());
    elementType = vector.getElementType();
  }
  SmallVector<int64_t> allShape{slots};
  allShape.append(shape);
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto allType = MemRefType::get(allShape, elementType,
                                 MemRefLayoutAttrInterface(), workgroup);
  Value all = kernel.addWorkgroupAttribution(allType, loc);

  SmallVector<OpFoldResult> offsets{slot}, sizes{b.getIndexAttr(1)},
      strides(allShape.size(), b.getIndexAttr(1));
  for (int64_t size : shape) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(size));
  }
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      shape, allType, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType), all,
                                   offsets, sizes, strides);
}

/// Makes the lanes of the calling thread's warp wait for each other, their
/// stores to workgroup memory visible to the others after it.
void LowerWarpExecutePass::synchronize(OpBuilder &b, Location loc,
                                       gpu::WarpExecuteOnLane0Op op) {
  if (target == "rocdl") {
    // The lanes of a wavefront run in lockstep: a fence of its scope keeps
    // the stores before the loads.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel,
                          b.getStringAttr("wavefront"));
    return;
  }
  // bar.warp.sync (CUDA's __syncwarp) over the lanes of the thread's warp
  // of 32 that exist: fewer in the partial last warp of a block, whose
  // missing lanes a full mask would wait for. The host backend runs the
  // same op, as a meeting of the subgroup's lanes that can reach it.
  auto [linear, threads] = getLinearThreadId(b, loc);
  Value thirtyTwo = constantIndex(b, loc, 32);
  Value base = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, linear, thirtyTwo), thirtyTwo);
  Value lanes = arith::MinUIOp::create(
      b, loc, thirtyTwo, arith::SubIOp::create(b, loc, threads, base));
  Type i32 = b.getI32Type();
  Value lanes32 = arith::IndexCastOp::create(b, loc, i32, lanes);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value all = arith::ConstantIntOp::create(b, loc, -1, 32);
  Value whole =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lanes, thirtyTwo);
  // (1 << lanes) - 1, with lanes < 32 where it is used.
  Value partial = arith::SubIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, one, lanes32), one);
  Value mask = arith::SelectOp::create(b, loc, whole, all, partial);
  auto sync = NVVM::SyncWarpOp::create(b, loc, mask);
  sync->setAttr(kRuntimeOpNameAttrName,
                b.getStringAttr(op->getName().getStringRef()));
  sync->setAttr(kWarpSyncAttrName, b.getUnitAttr());
}

} // namespace
} // namespace gpu_runner
