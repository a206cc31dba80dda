//===- KernelCuts.h - Where a kernel is cut into loops over threads -------===//
//
// What the analysis of barrier splitting (BarrierSplitAnalysis.cpp) finds in
// a kernel's thread function and its emission (BarrierSplitting.cpp) reads:
// which values differ between the threads of a block, which ops run once
// for the block, where the kernel is cut, and which per-thread values cross
// a cut in a buffer or are computed again after it. The two change for
// different reasons (which kernels split, how the loops look), hence a file
// each and this record between them.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_KERNELCUTS_H
#define GPU_RUNNER_LOWERING_HOST_KERNELCUTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace gpu_runner {

// The operands of mgpuHostShuffleAt (context, value, source lane, width,
// location) and mgpuHostBroadcastAt (context, value, source lane, location).
inline constexpr unsigned kExchangeValueOperand = 1;
inline constexpr unsigned kExchangeLaneOperand = 2;
inline constexpr unsigned kShuffleWidthOperand = 3;

/// Calls of the host runtime's barrier, shuffle and broadcast, as
/// gpu-runner-host-kernels emits them.
bool isBarrierCall(mlir::Operation *op);
bool isShuffleCall(mlir::Operation *op);
bool isBroadcastCall(mlir::Operation *op);
inline bool isExchangeCall(mlir::Operation *op) {
  return isShuffleCall(op) || isBroadcastCall(op);
}

/// The value an exchange moves, before the lowering widened it to the
/// runtime call's i64: its buffer and the loads from it are no wider.
mlir::Value getExchangedValue(mlir::Operation *op);

/// A kernel's thread function cut at its barriers and exchanges.
struct KernelCuts {
  KernelCuts(mlir::func::FuncOp thread, bool cutAtExchanges)
      : thread(thread), context(thread.getArgument(0)),
        cutAtExchanges(cutAtExchanges) {}

  bool isUniform(mlir::Value value) const { return !perThread.contains(value); }
  bool allUniform(mlir::ValueRange values) const {
    return llvm::all_of(values, [&](mlir::Value v) { return isUniform(v); });
  }

  mlir::func::FuncOp thread;
  mlir::Value context;
  /// Whether exchanges cut, as they do for loops over threads; pieces run
  /// on a subgroup's lanes (SubgroupVectors.h) exchange within a piece.
  bool cutAtExchanges;
  /// Values that may differ between the threads of a block.
  llvm::DenseSet<mlir::Value> perThread;
  /// Ops computed once for the block, outside the thread loops.
  llvm::DenseSet<mlir::Operation *> uniformOps;
  /// Ops with regions that contain barriers or exchanges, run once for the
  /// block.
  llvm::DenseSet<mlir::Operation *> syncOps;
  /// Shuffles and broadcasts, each the first op of a piece where they cut.
  llvm::SetVector<mlir::Operation *> exchanges;
  /// The per-thread values they move where they cut, whose buffers have a
  /// subgroup's worth of elements on either side (a subview of a larger
  /// alloca).
  llvm::DenseSet<mlir::Value> exchanged;
  /// Per-thread values kept in buffers: those used past the piece that
  /// computes them, and the per-thread values sync ops carry or yield.
  llvm::SetVector<mlir::Value> buffered;
  /// Per-thread values used past the piece that computes them that each
  /// piece computes again instead, from the thread ids and uniform values:
  /// a lane id or a shuffle's source lane costs less to compute than to
  /// store and load.
  llvm::DenseSet<mlir::Value> recomputed;
};

/// The one block of a branch region an emission fills, emptied of the
/// terminator an op's builder may have left there (scf.if's does;
/// scf.index_switch's leaves its regions without blocks).
inline mlir::Block &getEmptyBranchBlock(mlir::Region &region) {
  if (region.empty())
    region.emplaceBlock();
  mlir::Block &block = region.front();
  if (!block.empty() && block.back().hasTrait<mlir::OpTrait::IsTerminator>())
    block.back().erase();
  return block;
}

/// Fills `cuts` for its thread function; false if the kernel cannot be
/// split (BarrierSplitter::canSplit). `synchronizing` names the functions
/// that reach barriers or shuffles.
bool findKernelCuts(KernelCuts &cuts,
                    const llvm::DenseSet<mlir::StringAttr> &synchronizing);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_KERNELCUTS_H
