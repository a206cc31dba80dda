//===- SmallFloats.h - The float types LLVM has no type for ---------------===//
//
// MLIR's f8, f6 and f4 types and tf32. Host code computes on them through
// f32 (EmulateSmallFloats.cpp); the GPU targets refuse arithmetic on them
// in kernels (device/RefuseTargetOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_SMALLFLOATS_H
#define GPU_RUNNER_LOWERING_SMALLFLOATS_H

#include "mlir/IR/Types.h"

namespace gpu_runner {

/// Whether `type`, or its element type, is a float type LLVM has no type
/// for.
bool isSmallFloat(mlir::Type type);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_SMALLFLOATS_H
