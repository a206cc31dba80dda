//===- HostMma.h - gpu.subgroup_mma_* ops of kernels run on the CPU -------===//
//
// The host backend keeps a `!gpu.mma_matrix<R x C x T, "Op">` as a slice per
// lane: a `vector<S x T>` with S = R * C / 32, lane l holding the elements
// [l * S, (l + 1) * S) of the matrix in row-major order. The layout is the
// host backend's own, opaque to programs as a GPU's fragment layout is
// (gpu.subgroup_mma_extract_thread_local reads a lane's slice).
//
// Loads, stores, constants and element-wise ops work on each lane's own
// slice; gpu.subgroup_mma_compute needs all of A and B, which each lane
// gathers from the slices of its subgroup (mgpuHostSubgroupGatherAt, where
// the lanes meet as at a shuffle), then computes its slice of
// D = A * B + C in the accumulator's type (an f16 one's sum kept in f32 and
// rounded once).
//
// Only the matrices NVIDIA GPUs have (CUDA C++ Programming Guide, Warp
// Matrix Functions, Element Types and Matrix Sizes) are accepted; the
// others, which the dialect's verifier lets through, are errors at the op.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_HOSTMMA_H
#define GPU_RUNNER_LOWERING_HOST_HOSTMMA_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace gpu_runner {

/// Whether `op` is one of the gpu dialect's subgroup mma ops.
bool isMmaOp(mlir::Operation *op);

/// Checks every mma op and matrix of `function` against what NVIDIA GPUs
/// have and what the host backend runs (HostMmaChecks.cpp): an error at the
/// first op that fails.
mlir::LogicalResult checkHostMmaOps(mlir::func::FuncOp function);

/// Lowers the mma ops and values of `functions`, host copies of device
/// functions as gpu-runner-host-kernels makes them (argument 0 is the
/// kernel's context; the gpu id ops are still to be lowered). Fails with an
/// error at the first op that the host backend cannot run.
mlir::LogicalResult
lowerHostMmaOps(llvm::ArrayRef<mlir::func::FuncOp> functions);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_HOSTMMA_H
