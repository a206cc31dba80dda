// gpu.warp_execute_on_lane_0 compiles for NVIDIA GPUs, which upstream's
// NVVM lowering does not do: the lanes store their pieces of the operands
// in workgroup memory, one slot a warp, synchronize with bar.warp.sync
// (CUDA's __syncwarp) over the lanes of their warp that exist, lane 0 runs
// the body, and the lanes synchronize again to read the results. A kernel
// that declares its block size gets as many slots as it has warps (64
// threads: 2), one that does not as many as 1024 threads have (32).
// REQUIRES: cuda-runner, ptxas
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %S/../run/kernels/warp-execute.mlir 2>&1 | FileCheck %s
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_75 --dump-gpu-binary=%t %S/../run/kernels/warp-execute.mlir
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=FATBIN
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only %S/../errors/kernel-ops/warp-execute-too-wide.mlir 2>&1 | FileCheck %S/../errors/kernel-ops/warp-execute-too-wide.mlir

// FATBIN: elf sm_75 (ELF for sm_75)

// CHECK-LABEL: IR Dump After LowerWarpExecute
// CHECK-LABEL: gpu.func @reverse
// CHECK-SAME:    workgroup(%{{.*}} : memref<2x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<2x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<2x1xf32, #gpu.address_space<workgroup>>)
// CHECK:         vector.transfer_write %{{.*}} : vector<2xf32>, memref<64xf32
// CHECK:         nvvm.bar.warp.sync
// CHECK:         scf.if
// CHECK:           vector.transfer_read {{.*}} vector<64xf32>
// CHECK:         nvvm.bar.warp.sync
// CHECK:         vector.transfer_read {{.*}} vector<2xf32>
// CHECK-LABEL: gpu.func @broadcast_loop
// CHECK-SAME:    workgroup(%{{.*}} : memref<32x1xf32, #gpu.address_space<workgroup>>)
// The mask of a warp: all 32 lanes, or the (1 << lanes) - 1 that exist in
// the block's last warp (8 of its 40 threads).
// CHECK:         scf.for
// CHECK:           %[[WHOLE:.*]] = arith.cmpi eq
// CHECK:           %[[PARTIAL:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK:           %[[MASK:.*]] = arith.select %[[WHOLE]], %{{.*}}, %[[PARTIAL]] : i32
// CHECK:           nvvm.bar.warp.sync %[[MASK]]
// CHECK:           scf.if
// CHECK:             memref.store
// CHECK:           nvvm.bar.warp.sync
// CHECK:           memref.load
// CHECK-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// CHECK-LABEL: llvm.func @reverse
// CHECK-COUNT-2: nvvm.bar.warp.sync
// CHECK-LABEL: llvm.func @broadcast_loop
// CHECK-COUNT-2: nvvm.bar.warp.sync
