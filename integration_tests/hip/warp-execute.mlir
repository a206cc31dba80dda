// gpu.warp_execute_on_lane_0 compiles for AMD GPUs: the lanes of a
// wavefront run in lockstep, so a fence of wavefront scope orders each
// lane's stores to LDS before lane 0's loads. gfx90a's wavefronts of 64
// lanes take a warp of 64; a wave32 chip (gfx1100) refuses it at the op.
// REQUIRES: hip-runner
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx90a --dump-gpu-binary=%t %S/../run/kernels/warp-execute.mlir
// RUN: llvm-objdump -d %t/kernels.hsaco | FileCheck %s
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a %S/../errors/kernel-ops/warp-execute-too-wide.mlir
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only --gpu-chip=gfx1100 %S/../errors/kernel-ops/warp-execute-too-wide.mlir 2>&1 | FileCheck %S/../errors/kernel-ops/warp-execute-too-wide.mlir --check-prefix=WAVE32

// Each lane writes its 2 floats; lane 0 reads the 64.
// CHECK-LABEL: <reverse>:
// CHECK:         ds_write_b64
// CHECK:         ds_read_b128
// CHECK-LABEL: <broadcast_loop>:
// CHECK:         ds_write_b32
// CHECK:         ds_read_b32
