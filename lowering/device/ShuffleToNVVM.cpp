//===- ShuffleToNVVM.cpp - gpu.shuffle as shfl.sync
//-------------------------===//
//
// Upstream's NVVM lowering gives every lane that executes a gpu.shuffle a
// shfl.sync whose member mask is the first `width` lanes, and does not know
// which lanes of the warp exist. Both break the dialect's rules on a GPU:
//
// - The dialect lets lanes at or past the width execute the op ("returns
//   ... an unspecified value and false otherwise"), but the PTX ISA says
//   "The behavior of shfl.sync is undefined if the executing thread is not
//   in the membermask".
// - In the partial last warp of a block, whose lanes past the block's
//   threads do not exist, a source lane may not exist: "results are
//   undefined if a thread sources a register from an inactive thread or a
//   thread that is not in membermask" (PTX ISA, shfl.sync), while the
//   predicate says valid. gpu-runner defines such a source as not valid,
//   the lane keeping its own value, as the host backend does; the
//   reductions of gpu-runner-lower-gpu-reductions rely on it.
//
// So the shuffle takes place among the first w = min(width, lanes of the
// warp that exist) lanes, with those lanes as its member mask; the lanes
// at or past w skip it and keep their value, not valid. Every lane of the
// mask executes it (the dialect needs the first `width` lanes active), and
// each reads only a lane of the mask.
//
// The c operand: by the PTX ISA's pseudo-code c[4:0] is the clamp and
// c[12:8] the segment mask. For down, bfly and idx it is w - 1 with one
// segment (a source past w - 1 is not valid), upstream's. For up it is 0:
// a lane k is valid when k - offset >= 0, what the dialect says. Upstream
// passes 32 - width, with which no lane below the width is ever valid;
// CUDA's __shfl_up_sync passes (32 - width) << 8, segments of `width`
// lanes, which agrees for the powers of two CUDA allows and not for the
// other widths the dialect allows.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/ShuffleToNVVM.h"

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

/// How many lanes of the caller's warp exist, as an i32: 32, fewer in the
/// partial last warp of a block. A GPU numbers lanes by the thread's linear
/// id in its block, x fastest.
Value getPresentLanes(OpBuilder &b, Location loc) {
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
  Value size = arith::ConstantIndexOp::create(b, loc, kWarpSize);
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
    Value width = arith::MinUIOp::create(rewriter, loc, op.getWidth(),
                                         getPresentLanes(rewriter, loc));
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

} // namespace

std::unique_ptr<Pass> createShuffleToNVVM() {
  return std::make_unique<ShuffleToNVVMPass>();
}

void registerShuffleToNVVM() { PassRegistration<ShuffleToNVVMPass>(); }

} // namespace gpu_runner
