// gpu.warp_execute_on_lane_0 with gpu.lane_id as its lane id, in warps of
// 32, on the HIP stand-in: in the waves of 32 lanes of a gfx11 chip each
// warp of 32 sums its threads' ids; in the waves of 64 of a gfx9 chip,
// lanes 32-63 have lane ids of 32 and up, which the op does not allow
// (GPUOps.td, WarpExecuteOnLane0Op: below the warp size). There the first
// such lane fails the assertion gpu-runner puts before the op, with HIP's
// device-assert line, and the launch fails, exit status 1, where the GPU
// would have written past the warp's memory. On the host backend:
// errors/kernel-ops/warp-execute-lane-id.mlir.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: env GPU_RUNNER_STANDIN_HIP_CHIP=gfx1100 %gpu-runner-hip-standin --gpu-chip=gfx1100 --no-cache %s | FileCheck %s --check-prefix=WAVE32
// RUN: %expect-exit-1 %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s --check-prefix=WAVE64 --implicit-check-not=error:

// WAVE32: [496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520,  1520]

// WAVE64: hip-warp-execute-lane-id.mlir:[[# @LINE + 9]]: (unknown): Device-side assertion `gpu.warp_execute_on_lane_0's lane id is not below its warp size, 32' failed.
// WAVE64-NEXT: gpu-runner HIP runtime stand-in: kernel 'sum', block (0, 0, 0), thread (32, 0, 0) executed trap at trap in 'sum'

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%out: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %lane = gpu.lane_id
      %v = vector.broadcast %t : index to vector<1xindex>
      %s = gpu.warp_execute_on_lane_0(%lane)[32] args(%v : vector<1xindex>) -> (index) {
      ^bb0(%all: vector<32xindex>):
        %r = vector.reduction <add>, %all : vector<32xindex> into index
        gpu.yield %r : index
      }
      %si = arith.index_cast %s : index to i32
      memref.store %si, %out[%t] : memref<64xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xi32>
    // WAVE64-NEXT: hip-warp-execute-lane-id.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'sum' failed: hipErrorLaunchFailure
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    %host = memref.alloc () : memref<64xi32>
    gpu.memcpy %host, %out : memref<64xi32>, memref<64xi32>
    %u = memref.cast %host : memref<64xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<64xi32>
    memref.dealloc %host : memref<64xi32>
    return
  }
}
