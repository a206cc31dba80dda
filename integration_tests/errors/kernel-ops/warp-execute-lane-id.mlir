// The lane id of gpu.warp_execute_on_lane_0 must be below its warp size
// (GPUOps.td, WarpExecuteOnLane0Op): a lane with another would reach past
// its warp's part of the memory the lanes exchange values through. Each
// thread whose lane id is not fails an assertion at the op, and the launch
// fails, exit status 1. Here the thread id goes up to 63 in warps of 32;
// gpu.lane_id does where subgroups have 64 lanes
// (standin/hip-warp-execute-lane-id.mlir).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

// CHECK: warp-execute-lane-id.mlir:[[# @LINE + 9]]: (unknown): block: [0,0,0], thread: [32,0,0] Assertion `gpu.warp_execute_on_lane_0's lane id is not below its warp size, 32` failed.
// CHECK: warp-execute-lane-id.mlir:[[# @LINE + 8]]: (unknown): block: [0,0,0], thread: [63,0,0] Assertion
// CHECK: warp-execute-lane-id.mlir:[[# @LINE + 23]]:5: error: gpu.launch_func: kernel 'sum' failed in block (0, 0, 0): 32 threads failed an assertion

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%out: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %v = vector.broadcast %t : index to vector<1xindex>
      %s = gpu.warp_execute_on_lane_0(%t)[32] args(%v : vector<1xindex>) -> (index) {
      ^bb0(%all: vector<32xindex>):
        %r = vector.reduction <add>, %all : vector<32xindex> into index
        gpu.yield %r : index
      }
      %si = arith.index_cast %s : index to i32
      %sf = arith.sitofp %si : i32 to f32
      memref.store %sf, %out[%t] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    gpu.dealloc %out : memref<64xf32>
    return
  }
}
