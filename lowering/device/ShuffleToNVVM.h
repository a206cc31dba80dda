//===- ShuffleToNVVM.h - gpu.shuffle as shfl.sync ---------------*- C++ -*-===//
//
// `gpu-runner-shuffle-to-nvvm`, run on CUDA kernel modules before upstream's
// NVVM lowering: each gpu.shuffle of an i32 or f32 becomes a nvvm.shfl.sync
// among the first w = min(width, lanes of the warp that exist) lanes, which
// alone execute it; the others keep their value, not valid:
//
//   %r, %ok = gpu.shuffle up %v, %offset, %width : f32
//   // becomes
//   %w = arith.minui %width, %present : i32
//   %r, %ok = scf.if (%lane < %w) {
//     %members = arith.shrui %c-1, (32 - %w) : i32
//     %s = nvvm.shfl.sync up %members, %v, %offset, %c0
//         {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
//     scf.yield %s.0, %s.1
//   } else { scf.yield %v, false }
//
// with c = 0 for up, w - 1 for the other modes. ShuffleToNVVM.cpp says why.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_SHUFFLETONVVM_H
#define GPU_RUNNER_LOWERING_DEVICE_SHUFFLETONVVM_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createShuffleToNVVM();
/// Makes the pass known to gpu-runner-opt by its flag.
void registerShuffleToNVVM();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_SHUFFLETONVVM_H
