// Every program of the run suite, kernels included, compiles for gfx90a
// and gfx942.
// REQUIRES: hip-runner
// RUN: %python %S/../Inputs/compile-all.py %gpu-runner-hip %S/.. run run/kernels run/host | FileCheck %s --implicit-check-not=failed
// RUN: %python %S/../Inputs/compile-all.py "%gpu-runner-hip --gpu-chip=gfx942" %S/.. run/kernels | FileCheck %s --check-prefix=GFX942 --implicit-check-not=failed

// CHECK: ok run/alloc-forms.mlir
// CHECK: skipped run/examples.mlir
// CHECK: ok run/split-input-file.mlir
// CHECK: ok run/kernels/async-fork-join.mlir
// CHECK: ok run/kernels/atomics.mlir
// CHECK: skipped run/kernels/clusters.mlir
// CHECK: skipped run/kernels/matrix-intrinsics.mlir
// CHECK: skipped run/kernels/mma-f16.mlir
// CHECK: ok run/kernels/subgroups-and-arguments.mlir
// CHECK: ok run/kernels/vector-transfer-dynamic.mlir
// GFX942: ok run/kernels/all-reduce.mlir
