//===- Shuffles.h - gpu.shuffle for the GPU targets -------------*- C++ -*-===//
//
// Two passes, run on kernel modules before the targets' own lowerings, that
// give gpu.shuffle the dialect's meaning on a GPU. A shuffle takes place
// among the first w = min(width, lanes of the subgroup that exist) lanes;
// a lane at or past w, or one whose source lane is outside [0, w), keeps
// its value, not valid. Shuffles.cpp says why.
//
// `gpu-runner-shuffle-to-nvvm`, for CUDA: each gpu.shuffle of an i32 or
// f32 becomes a nvvm.shfl.sync that those w lanes alone execute:
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
// with c = 0 for up, w - 1 for the other modes.
//
// `gpu-runner-shuffle-to-rocdl`, for HIP: each gpu.shuffle becomes one that
// reads a lane the pass computed, which upstream's ROCDL lowering turns
// into ds_bpermute as it is:
//
//   %r, %ok = gpu.shuffle up %v, %offset, %width : f32
//   // becomes, with a wave of 64
//   %w = arith.minui %width, %present : i32
//   %src = arith.subi %lane, %offset : i32
//   %ok = (%lane < %w) and (0 <= %src < %w)
//   %from = arith.select %ok, %src, %lane : i32
//   %read, %unused = gpu.shuffle idx %v, %from, %c64 : f32
//   %r = arith.select %ok, %read, %v : f32
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_SHUFFLES_H
#define GPU_RUNNER_LOWERING_DEVICE_SHUFFLES_H

#include "mlir/Pass/Pass.h"

#include <cstdint>
#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createShuffleToNVVM();
/// `waveSize`: the chip's, 32 or 64 (getAmdgpuWaveSize).
std::unique_ptr<mlir::Pass> createShuffleToROCDL(int64_t waveSize);
/// Makes the passes known to gpu-runner-opt by their flags.
void registerShuffleToNVVM();
void registerShuffleToROCDL();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_SHUFFLES_H
