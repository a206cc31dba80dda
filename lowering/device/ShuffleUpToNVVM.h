//===- ShuffleUpToNVVM.h - gpu.shuffle up as shfl.sync.up ------*- C++ -*-===//
//
// `gpu-runner-shuffle-up-to-nvvm`, run on CUDA kernel modules before
// upstream's NVVM lowering: each gpu.shuffle up of an i32 or f32 becomes a
// nvvm.shfl.sync up among the first `width` lanes with c = 0 (clamp 0, no
// segments), where upstream passes c = 32 - width, with which no lane below
// the width is valid by the PTX ISA's rules:
//
//   %r, %ok = gpu.shuffle up %v, %offset, %width : f32
//   // becomes
//   %unused = llvm.sub %c32, %width : i32
//   %members = llvm.lshr %c-1, %unused : i32
//   %s = nvvm.shfl.sync up %members, %v, %offset, %c0
//       {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
//
// ShuffleUpToNVVM.cpp says why, mode by mode.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_SHUFFLEUPTONVVM_H
#define GPU_RUNNER_LOWERING_DEVICE_SHUFFLEUPTONVVM_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createShuffleUpToNVVM();
/// Makes the pass known to gpu-runner-opt by its flag.
void registerShuffleUpToNVVM();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_SHUFFLEUPTONVVM_H
