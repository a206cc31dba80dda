//===- Shuffles.cpp - gpu.shuffle for the GPU targets ---------------------===//
//
// The gpu dialect's gpu.shuffle: the first `width` lanes shuffle among
// themselves; "returns the `value` from the source lane and true if the
// source lane is valid ([0, width)), an unspecified value and false
// otherwise". Both targets' upstream lowerings break it on a GPU.
//
// NVVM. Upstream's gives every lane that executes a gpu.shuffle a
// shfl.sync whose member mask is the first `width` lanes, and does not know
// which lanes of the warp exist:
//
// - The dialect lets lanes at or past the width execute the op, but the
//   PTX ISA says "The behavior of shfl.sync is undefined if the executing
//   thread is not in the membermask".
// - In the partial last warp of a block, whose lanes past the block's
//   threads do not exist, a source lane may not exist: "results are
//   undefined if a thread sources a register from an inactive thread or a
//   thread that is not in membermask" (PTX ISA, shfl.sync), while the
//   predicate says valid.
//
// ROCDL. Upstream's reads ds_bpermute's lane `src` where src < (lane +
// width) & -width, and calls it valid:
//
// - For up, src = lane - offset is negative below the offset, which passes
//   that test: ds_bpermute reads lane src mod 64 (the ISA uses address bits
//   7:2) and the flag says valid, where the dialect says not valid.
// - A width that is not a power of two gives the wrong bound.
// - As on NVIDIA, a lane past the block's threads does not exist: it is
//   not active, and "reading from inactive lanes returns 0" (the ISA's
//   DS_BPERMUTE_B32), valid.
//
// gpu-runner defines a source lane that does not exist as not valid, the
// lane keeping its own value, as the host backend does; the reductions of
// gpu-runner-lower-gpu-reductions rely on it, for a block whose size is not
// a multiple of the subgroup's. So the shuffle takes place among the first
// w = min(width, lanes of the subgroup that exist) lanes, and the others
// keep their value, not valid.
//
// For NVVM, those w lanes alone execute shfl.sync, with them as its member
// mask. The c operand: by the PTX ISA's pseudo-code c[4:0] is the clamp
// and c[12:8] the segment mask. For down, bfly and idx it is w - 1 with one
// segment (a source past w - 1 is not valid), upstream's. For up it is 0:
// a lane k is valid when k - offset >= 0, what the dialect says. Upstream
// passes 32 - width, with which no lane below the width is ever valid;
// CUDA's __shfl_up_sync passes (32 - width) << 8, segments of `width`
// lanes, which agrees for the powers of two CUDA allows and not for the
// other widths the dialect allows.
//
// For ROCDL, every lane computes its source and the flag itself, and then
// executes a shuffle of the whole wave that reads the source, or the lane
// itself where the flag is false: upstream's lowering turns that one into
// a ds_bpermute whose lane is always active.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/Shuffles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// The warp size of NVIDIA GPUs (PTX ISA, %warpsize).
constexpr int64_t kWarpSize = 32;

NVVM::ShflKind getShflKind(gpu::ShuffleMode mode) {
  switch (mode) {
  case gpu::ShuffleMode::XOR:
    return NVVM::ShflKind::bfly;
  case gpu::ShuffleMode::UP:
    return NVVM::ShflKind::up;
  case gpu::ShuffleMode::DOWN:
    return NVVM::ShflKind::down;
  case gpu::ShuffleMode::IDX:
    return NVVM::ShflKind::idx;
  }
  llvm_unreachable("unknown shuffle mode");
}

/// How many lanes of the caller's subgroup of `subgroupSize` exist, as an
/// i32: all, fewer in the partial last subgroup of a block. Both vendors
/// number lanes by the thread's linear id in its block, x fastest (CUDA C++
/// Programming Guide, "SIMT Architecture"; AMDGPUUsage: a work-group's
/// work-items make up its wavefronts in order).
Value getPresentLanes(OpBuilder &b, Location loc, int64_t subgroupSize) {
  using gpu::Dimension;
  auto id = [&](Dimension d) -> Value {
    return gpu::ThreadIdOp::create(b, loc, d);
  };
  auto dim = [&](Dimension d) -> Value {
    return gpu::BlockDimOp::create(b, loc, d);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  Value linear =
      add(id(Dimension::x),
          mul(dim(Dimension::x),
              add(id(Dimension::y), mul(dim(Dimension::y), id(Dimension::z)))));
  Value threads =
      mul(dim(Dimension::x), mul(dim(Dimension::y), dim(Dimension::z)));
  Value size = arith::ConstantIndexOp::create(b, loc, subgroupSize);
  Value lane = arith::RemUIOp::create(b, loc, linear, size);
  Value first = arith::SubIOp::create(b, loc, linear, lane);
  Value present = arith::MinUIOp::create(
      b, loc, size, arith::SubIOp::create(b, loc, threads, first));
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), present);
}

struct ShuffleToShflSync : OpRewritePattern<gpu::ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getValue().getType();
    // What shfl.sync moves; upstream's lowering refuses the rest alike.
    if (!type.isInteger(32) && !type.isF32())
      return rewriter.notifyMatchFailure(op, "not a 32-bit scalar");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    // The flag, where nothing reads it, as upstream leaves it out.
    bool validUsed = !op.getValid().use_empty();
    auto notValid = [&](OpBuilder &b) -> Value {
      return arith::ConstantIntOp::create(b, loc, 0, 1);
    };
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, value, 32);
    };
    Value lane = arith::IndexCastOp::create(
        rewriter, loc, i32, gpu::LaneIdOp::create(rewriter, loc, nullptr));
    Value width =
        arith::MinUIOp::create(rewriter, loc, op.getWidth(),
                               getPresentLanes(rewriter, loc, kWarpSize));
    Value takesPart = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lane, width);
    auto taken = scf::IfOp::create(
        rewriter, loc, takesPart,
        [&](OpBuilder &b, Location loc) {
          // The first `width` lanes, width >= 1 here: -1 >> (32 - width).
          Value members = arith::ShRUIOp::create(
              b, loc, constant(-1),
              arith::SubIOp::create(b, loc, constant(kWarpSize), width));
          // Clamp width - 1 (bits 4:0), or 0 for up; no segment mask
          // (bits 12:8).
          Value clamp = op.getMode() == gpu::ShuffleMode::UP
                            ? constant(0)
                            : arith::SubIOp::create(b, loc, width, constant(1))
                                  .getResult();
          NVVM::ShflKind kind = getShflKind(op.getMode());
          if (!validUsed) {
            Value shuffle =
                NVVM::ShflOp::create(b, loc, type, members, op.getValue(),
                                     op.getOffset(), clamp, kind, UnitAttr());
            scf::YieldOp::create(b, loc, ValueRange{shuffle, notValid(b)});
            return;
          }
          Type resultType = LLVM::LLVMStructType::getLiteral(
              b.getContext(), {type, rewriter.getI1Type()});
          Value shuffle = NVVM::ShflOp::create(b, loc, resultType, members,
                                               op.getValue(), op.getOffset(),
                                               clamp, kind, b.getUnitAttr());
          scf::YieldOp::create(
              b, loc,
              ValueRange{LLVM::ExtractValueOp::create(b, loc, shuffle, 0),
                         LLVM::ExtractValueOp::create(b, loc, shuffle, 1)});
        },
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, ValueRange{op.getValue(), notValid(b)});
        });
    rewriter.replaceOp(op, taken.getResults());
    return success();
  }
};

struct ShuffleToBpermute : OpRewritePattern<gpu::ShuffleOp> {
  ShuffleToBpermute(MLIRContext *context, int64_t waveSize)
      : OpRewritePattern(context), waveSize(waveSize) {}

  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, value, 32);
    };
    auto compare = [&](arith::CmpIPredicate predicate, Value x,
                       Value y) -> Value {
      return arith::CmpIOp::create(rewriter, loc, predicate, x, y);
    };
    Value lane = arith::IndexCastOp::create(
        rewriter, loc, i32, gpu::LaneIdOp::create(rewriter, loc, nullptr));
    Value width = arith::MinUIOp::create(
        rewriter, loc, op.getWidth(), getPresentLanes(rewriter, loc, waveSize));
    Value offset = op.getOffset();
    Value source;
    switch (op.getMode()) {
    case gpu::ShuffleMode::XOR:
      source = arith::XOrIOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::UP:
      source = arith::SubIOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::DOWN:
      source = arith::AddIOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::IDX:
      source = offset;
      break;
    }
    // 0 <= source < w as one unsigned compare, and the lane among the w.
    Value laneIn = compare(arith::CmpIPredicate::ult, lane, width);
    Value sourceIn = compare(arith::CmpIPredicate::ult, source, width);
    Value valid = arith::AndIOp::create(rewriter, loc, laneIn, sourceIn);
    Value from = arith::SelectOp::create(rewriter, loc, valid, source, lane);
    auto read =
        gpu::ShuffleOp::create(rewriter, loc, op.getValue(), from,
                               constant(waveSize), gpu::ShuffleMode::IDX);
    Value value = arith::SelectOp::create(
        rewriter, loc, valid, read.getShuffleResult(), op.getValue());
    rewriter.replaceOp(op, {value, valid});
    return success();
  }

  int64_t waveSize;
};

class ShuffleToNVVMPass
    : public PassWrapper<ShuffleToNVVMPass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ShuffleToNVVMPass)

  StringRef getArgument() const final { return "gpu-runner-shuffle-to-nvvm"; }
  StringRef getDescription() const final {
    return "Lower gpu.shuffle to shfl.sync among the lanes that take part, "
           "with the operand the PTX ISA wants";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                    scf::SCFDialect>();
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ShuffleToShflSync>(&getContext());
    // Once over each op, folding nothing else of the module.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

class ShuffleToROCDLPass
    : public PassWrapper<ShuffleToROCDLPass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ShuffleToROCDLPass)

  ShuffleToROCDLPass() = default;
  ShuffleToROCDLPass(const ShuffleToROCDLPass &other) : PassWrapper(other) {}
  explicit ShuffleToROCDLPass(int64_t size) { waveSize = size; }

  StringRef getArgument() const final { return "gpu-runner-shuffle-to-rocdl"; }
  StringRef getDescription() const final {
    return "Lower gpu.shuffle to a shuffle of the whole wave that reads the "
           "source lane the dialect means, or the lane itself";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }

  void runOnOperation() override {
    if (waveSize != 32 && waveSize != 64) {
      getOperation().emitError()
          << "gpu-runner-shuffle-to-rocdl: a wave has 32 or 64 lanes, not "
          << static_cast<int64_t>(waveSize);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<ShuffleToBpermute>(&getContext(), waveSize);
    // Once over each op: the shuffles it makes are left as they are.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }

  Option<int64_t> waveSize{
      *this, "wave-size",
      llvm::cl::desc("The chip's wave size, 32 or 64 (default 64)"),
      llvm::cl::init(64)};
};

} // namespace

std::unique_ptr<Pass> createShuffleToNVVM() {
  return std::make_unique<ShuffleToNVVMPass>();
}

std::unique_ptr<Pass> createShuffleToROCDL(int64_t waveSize) {
  return std::make_unique<ShuffleToROCDLPass>(waveSize);
}

void registerShuffleToNVVM() { PassRegistration<ShuffleToNVVMPass>(); }

void registerShuffleToROCDL() { PassRegistration<ShuffleToROCDLPass>(); }

} // namespace gpu_runner
