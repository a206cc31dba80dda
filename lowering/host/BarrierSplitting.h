//===- BarrierSplitting.h - Kernels with barriers as loops over threads ---===//
//
// A kernel whose barriers every thread of a block reaches together can run
// without fibers: its body is cut at the barriers into pieces, and each
// piece runs as a loop over the block's threads. The block then pays a loop
// per barrier instead of two context switches per thread per barrier, and
// the loops vectorize.
//
// Shuffles and broadcasts (gpu.shuffle, and what gpu.subgroup_reduce,
// gpu.rotate and gpu.subgroup_broadcast become) are cut at the same way:
// the piece before one stores every lane's value in a buffer, and the piece
// after it starts with each lane reading its source lane's value there. A
// butterfly of five shuffles is then six loops over the threads rather than
// five context switches per thread on fibers.
//
// That is valid when the barriers and exchanges are reached uniformly:
// directly in the kernel's body, or inside scf.for, scf.if and
// scf.index_switch ops whose bounds, conditions and cases are the same for
// every thread of the block, and scf.while ops whose condition and carried
// values are. A value one piece
// computes per thread and a later piece uses is kept in a per-thread
// buffer, and so are per-thread values such loops and branches carry or
// return (the sum of a tiled matrix product, say). Any other kernel with
// barriers or exchanges keeps running on fibers, which also report barriers
// and shuffles that not every thread reaches; so does a shuffle whose width
// is not a constant in [1, 32], whose error the runtime reports.
//
// A kernel that returns early (`if (tid >= n) return;`, before or between
// barriers) is one of those: its body has more than one block, so it is
// never split, and so is one with a cf.assert (in it or a function it
// calls), whose failure ends the thread there. On fibers a thread that
// returned or failed an assertion no longer counts at later
// barriers, as on a GPU; splitting such kernels would need a per-thread
// "returned" mask in every piece, for a speed-up only.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_BARRIERSPLITTING_H
#define GPU_RUNNER_LOWERING_HOST_BARRIERSPLITTING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

namespace gpu_runner {

struct KernelCuts;

/// Emits at `b`'s insertion point a loop nest over the threads of a block of
/// `blockSize` (x, y, z), x innermost so that consecutive iterations touch
/// consecutive elements and the loop vectorizes, and calls
/// `body(builder, thread ids)` inside it.
void createThreadLoops(
    mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange blockSize,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::ValueRange)> body);

class BarrierSplitter {
public:
  /// `thread` is a kernel's thread function as gpu-runner-host-kernels makes
  /// it: the context, the thread ids (arguments 1 to 3), then block-wide
  /// arguments; its barriers are calls of mgpuHostBarrierAt.
  /// `synchronizing` names the functions that reach barriers or shuffles.
  /// With `subgroupVectors`, blocks whose size in x is a multiple of the
  /// subgroup size run each piece once per subgroup, on vectors of its
  /// lanes, where every piece can (SubgroupVectors.h).
  BarrierSplitter(mlir::func::FuncOp thread,
                  const llvm::DenseSet<mlir::StringAttr> &synchronizing,
                  bool subgroupVectors);
  ~BarrierSplitter();

  /// Whether every barrier and exchange of the kernel is reached uniformly
  /// and nothing else needs a fiber (matrix gathers, barriers or shuffles in
  /// called functions, per-thread values that cannot be kept in a buffer).
  bool canSplit();

  /// Emits the kernel body at `b`'s insertion point in a block function.
  /// `blockArguments` maps every argument of the thread function but the
  /// thread ids to its value in the block function; `blockSize` holds the
  /// block's size in x, y and z. Call only if canSplit(). True if blocks
  /// whose size in x is a multiple of the subgroup size run on a
  /// subgroup's lanes. `wholeSubgroups` says, where it is known before the
  /// run, whether every block's size in x is such a multiple, so that only
  /// the way those blocks run is compiled.
  bool emit(mlir::OpBuilder &b, const mlir::IRMapping &blockArguments,
            mlir::ValueRange blockSize, std::optional<bool> wholeSubgroups);

private:
  /// Where canSplit() cut the kernel (KernelCuts.h), which emit() reads:
  /// for loops over threads, and for a subgroup's lanes where it can run
  /// so.
  std::unique_ptr<KernelCuts> cuts;
  std::unique_ptr<KernelCuts> subgroupCuts;
  const llvm::DenseSet<mlir::StringAttr> &synchronizing;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_BARRIERSPLITTING_H
