// The CUDA and HIP backends refuse a launch of other sizes than a kernel's
// known_block_size or known_grid_size as the host backend does, at the
// launch and before the driver sees it: the program of
// errors/launch-known-sizes.mlir, with its checks.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 %gpu-runner-cuda-standin -e wrong_block %S/../errors/launch/launch-known-sizes.mlir 2>&1 | FileCheck %S/../errors/launch/launch-known-sizes.mlir --check-prefix=BLOCK
// RUN: %expect-exit-1 %gpu-runner-hip-standin -e wrong_block %S/../errors/launch/launch-known-sizes.mlir 2>&1 | FileCheck %S/../errors/launch/launch-known-sizes.mlir --check-prefix=BLOCK
// RUN: %expect-exit-1 %gpu-runner-cuda-standin -e wrong_grid %S/../errors/launch/launch-known-sizes.mlir 2>&1 | FileCheck %S/../errors/launch/launch-known-sizes.mlir --check-prefix=GRID
// RUN: %expect-exit-1 %gpu-runner-hip-standin -e wrong_grid %S/../errors/launch/launch-known-sizes.mlir 2>&1 | FileCheck %S/../errors/launch/launch-known-sizes.mlir --check-prefix=GRID
