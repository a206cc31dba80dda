// The sparse ops are refused by name for NVIDIA GPUs too, before anything
// is compiled: the program and its expected error are
// errors/unsupported/sparse-op.mlir.
// REQUIRES: cuda-runner
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only %S/../errors/unsupported/sparse-op.mlir 2>&1 | FileCheck %S/../errors/unsupported/sparse-op.mlir --implicit-check-not=error:
