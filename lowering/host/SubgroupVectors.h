//===- SubgroupVectors.h - A kernel's pieces on a subgroup's lanes --------===//
//
// Barrier splitting (BarrierSplitting.h) runs each piece of a kernel as a
// loop over the block's threads. Where the block's size in x is a multiple
// of the subgroup size, each piece can instead run once per subgroup, with
// every per-thread value a vector of the subgroup's 32 lanes: a shuffle is
// then a permutation of a vector in registers and a broadcast an element of
// one, so neither cuts the kernel (whole-function vectorization, as ISPC and
// the work-group vectorizers of OpenCL CPU runtimes do it).
//
// Each value of a piece is emitted either as a scalar, when every lane of
// the subgroup holds the same (the block's uniform values, the y and z
// thread ids, what only they reach), or as a vector of its lanes. A vector
// whose lanes are consecutive (the x thread id, a global id) is known as
// such, so that a load or store at it is one vector access rather than a
// gather or scatter, and, where its first lane is a multiple of 32 (the
// block's size in x is one here), the lane id and the subgroup id it gives
// are constants and scalars. A branch on a per-lane condition runs both
// sides under masks, each only where some lane takes it; a memory access
// under a mask touches only the active lanes' elements.
//
// What this does not know (calls, atomics, private memory, loops whose
// bounds differ between lanes, values that are already vectors, a broadcast
// from a lane that is not a constant) fails the emission, and the kernel
// runs as loops over its threads.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_SUBGROUPVECTORS_H
#define GPU_RUNNER_LOWERING_HOST_SUBGROUPVECTORS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace gpu_runner {

struct KernelCuts;

/// The values of one subgroup's lanes, as a piece of a kernel is emitted
/// for them.
class SubgroupLanes {
public:
  /// `map` holds what the block computes once; `blockSizeX` is the block's
  /// size in x, a multiple of the subgroup size. `getScratch(type)` gives a
  /// memref<32 x type> on the block function's stack, for the shuffles
  /// whose source lanes are not constants.
  SubgroupLanes(const KernelCuts &cuts, mlir::IRMapping map,
                mlir::Value blockSizeX,
                std::function<mlir::Value(mlir::Type)> getScratch);

  /// The thread ids of the subgroup whose first thread is (x0, y, z), x0 a
  /// multiple of the subgroup size.
  void setThreadIds(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x0,
                    mlir::Value y, mlir::Value z);
  /// Maps `original` to `vector`, the subgroup's values of it.
  void mapLanes(mlir::Value original, mlir::Value vector);

  /// Emits `op` for the subgroup's lanes; failure where it cannot, having
  /// emitted part of it (the caller drops all that was emitted).
  mlir::LogicalResult emit(mlir::Operation *op, mlir::OpBuilder &b);
  /// Emits again the ops without side effects that compute `value`.
  mlir::LogicalResult recompute(mlir::Value value, mlir::OpBuilder &b);
  /// The lanes' values of `original` as a vector (of i8 for an i1).
  mlir::FailureOr<mlir::Value> getVector(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value original);

private:
  mlir::Value lookup(mlir::Value original) const {
    return values.lookupOrDefault(original);
  }
  bool isLanes(mlir::Value emitted) const { return lanes.contains(emitted); }
  mlir::Value broadcast(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value emitted);
  bool isMultipleOfSubgroup(mlir::Value scalar) const;
  mlir::Value laneConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type elementType,
                           llvm::function_ref<int64_t(int64_t)> lane);
  mlir::Value allLanes(mlir::OpBuilder &b, mlir::Location loc);
  mlir::Value anyLane(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value laneMask);
  unsigned lookupIndices(mlir::ValueRange indices,
                         llvm::SmallVectorImpl<mlir::Value> &emitted) const;
  void mapResult(mlir::Value original, mlir::Value emitted, bool asLanes);

  mlir::LogicalResult emitPure(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitLaneByLane(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitLaneLoop(mlir::Operation *op, mlir::OpBuilder &b);
  void forget(mlir::Operation *op);
  bool emitConsecutive(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitLoad(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitStore(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitExchange(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitIf(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::LogicalResult emitFor(mlir::Operation *op, mlir::OpBuilder &b);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  emitRegion(mlir::Block &block, mlir::OpBuilder &b,
             mlir::TypeRange resultTypes);
  mlir::FailureOr<llvm::SmallVector<mlir::Type>>
  getResultTypes(mlir::ValueRange results) const;
  mlir::FailureOr<mlir::Value> convert(mlir::OpBuilder &b, mlir::Location loc,
                                       mlir::Value original, mlir::Type type);

  const KernelCuts &cuts;
  /// Original values to what this subgroup computed for them.
  mlir::IRMapping values;
  /// The emitted values that are vectors of the lanes.
  llvm::DenseSet<mlir::Value> lanes;
  /// Vectors of consecutive lanes: vector -> its first lane (a scalar).
  llvm::DenseMap<mlir::Value, mlir::Value> firstLane;
  /// Masks whether some lane of which is set a scalar i1 tells.
  llvm::DenseMap<mlir::Value, mlir::Value> anyOf;
  /// Scalars known to be multiples of the subgroup size.
  llvm::DenseSet<mlir::Value> multiples;
  /// The lanes that run the ops being emitted (a vector of i1), or none
  /// where every lane does.
  mlir::Value mask;
  std::function<mlir::Value(mlir::Type)> getScratch;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_SUBGROUPVECTORS_H
