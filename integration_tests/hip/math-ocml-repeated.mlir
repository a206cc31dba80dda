// The math kernel of math-ocml.mlir, compiled by many runs at once. Before
// the device libraries were linked, its "no libcall available" error called
// exit() on the kernel compile's thread while the host code still compiled
// on another, and some runs then aborted ("pure virtual method called")
// or printed LLVM's stack dump. Every run must now succeed, under the
// sanitizers too (scripts/test --sanitize runs this suite).
// REQUIRES: hip-runner
// RUN: %python %S/../Inputs/run-concurrently.py 10 %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx90a %S/math-ocml.mlir
// RUN: %python %S/../Inputs/run-concurrently.py 10 %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx1100 %S/math-ocml.mlir
