// HIP has no thread block clusters: a kernel that reads a cluster id or size
// stops before it is compiled, at the op, with the reason, where upstream's
// ROCDL lowering would report an op it failed to legalize. (A launch with
// `clusters in` is refused by the HIP runtime wrappers at the launch.)
// REQUIRES: hip-runner
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only --gpu-chip=gfx90a %S/../run/kernels/clusters.mlir 2>&1 | FileCheck %s --implicit-check-not=error:

// Each gpu.module of the file reports its first.
// CHECK: clusters.mlir:24:14: error: 'gpu.cluster_id' cannot be compiled for AMD GPUs: HIP has no thread block clusters (a CUDA feature of sm_90 and newer); compute the block's position from gpu.block_id instead
// CHECK: clusters.mlir:78:11: error: 'gpu.cluster_id' cannot be compiled for AMD GPUs
