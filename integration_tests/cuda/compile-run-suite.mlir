// Every program of the run suite, kernels included, compiles for sm_90:
// what a GPU machine then runs (with --param backend=cuda) is known to get
// through the NVVM lowering and ptxas here.
// REQUIRES: cuda-runner, ptxas
// RUN: %python %S/../Inputs/compile-all.py %gpu-runner-cuda %S/.. run run/kernels run/host | FileCheck %s --implicit-check-not=failed
// RUN: %python %S/../Inputs/compile-all.py %gpu-runner-cuda %S/../.. examples benchmarks/kernels | FileCheck %s --check-prefix=OTHERS --implicit-check-not=failed

// CHECK: ok run/alloc-forms.mlir
// CHECK: skipped run/examples.mlir
// CHECK: ok run/split-input-file.mlir
// CHECK: ok run/kernels/async-fork-join.mlir
// CHECK: ok run/kernels/atomics.mlir
// CHECK: ok run/kernels/clusters.mlir
// CHECK: skipped run/kernels/matrix-intrinsics.mlir
// CHECK: skipped run/kernels/mma-elementwise-host.mlir
// CHECK: ok run/kernels/mma-elementwise.mlir
// CHECK: ok run/kernels/mma-f16.mlir
// CHECK: ok run/kernels/mma-int8.mlir
// CHECK: ok run/kernels/mma-shapes.mlir
// CHECK: skipped run/kernels/mma-thread-local.mlir
// CHECK: ok run/kernels/mma-transpose.mlir
// CHECK: ok run/kernels/mma-workgroup.mlir
// CHECK: ok run/kernels/subgroups-and-arguments.mlir
// CHECK: ok run/kernels/vector-transfer-dynamic.mlir
// OTHERS: ok examples/histogram.mlir
// OTHERS: ok examples/prefix-scan.mlir
// OTHERS: ok examples/saxpy-kernel.mlir
// OTHERS: ok examples/tiled-matmul.mlir
// OTHERS: ok examples/two-stream-pipeline.mlir
// OTHERS: ok examples/vector-add.mlir
// OTHERS: ok benchmarks/kernels/allreduce.mlir
// OTHERS: ok benchmarks/kernels/elementwise.mlir
// OTHERS: ok benchmarks/kernels/reduction.mlir
// OTHERS: ok benchmarks/kernels/shuffle.mlir
// OTHERS: ok benchmarks/kernels/softmax.mlir
