//===- CheckLaunchSizes.h - Launches checked against known sizes -*- C++
//-*-===//
//
// `gpu-runner-check-launch-sizes`: each gpu.launch_func of a kernel that
// declares `known_block_size` or `known_grid_size` checks, when it runs,
// that it launches those sizes, and stops the program with an error at the
// launch where it does not. A kernel is compiled for the sizes it declares
// (CUDA: `.maxntid`, which makes the driver refuse a larger block), and the
// dialect makes another launch undefined; the host backend would run it.
// The check is a cf.assert named for the launch, before the kernel's
// gpu.module is compiled, so that every backend makes it alike:
//
//   k.mlir:12:5: error: gpu.launch_func: the block size is not (64, 1, 1),
//   the known_block_size of kernel 'k', for which it was compiled
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_CHECKS_CHECKLAUNCHSIZES_H
#define GPU_RUNNER_LOWERING_CHECKS_CHECKLAUNCHSIZES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createCheckLaunchSizes();
/// Makes the pass known to gpu-runner-opt by its flag.
void registerCheckLaunchSizes();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_CHECKS_CHECKLAUNCHSIZES_H
