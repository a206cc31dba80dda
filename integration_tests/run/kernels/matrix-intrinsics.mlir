// RUN: %gpu-runner -O0 %s | FileCheck %s
// RUN: %gpu-runner -O2 %s | FileCheck %s
// REQUIRES: host

// LLVM's matrix intrinsics in a kernel the host backend runs: kernels are
// compiled with the host code, and their matrix intrinsics lowered with
// them. (On the GPU targets they have no lowering; this program is for the
// host backend only.)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread transposes its own 2 x 3 matrix (t, t + 1, ..., t + 5 in
    // column-major order) and multiplies it by the matrix: M^T M, 3 x 3.
    gpu.func @transpose(%out: memref<2x15xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %steps = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf32>
      %base = vector.broadcast %tf : f32 to vector<6xf32>
      %m = arith.addf %base, %steps : vector<6xf32>
      %mt = llvm.intr.matrix.transpose %m {rows = 2 : i32, columns = 3 : i32} : vector<6xf32> into vector<6xf32>
      %p = llvm.intr.matrix.multiply %mt, %m {lhs_rows = 3 : i32, lhs_columns = 2 : i32, rhs_columns = 3 : i32} : (vector<6xf32>, vector<6xf32>) -> vector<9xf32>
      %c0 = arith.constant 0 : index
      %c6 = arith.constant 6 : index
      vector.store %mt, %out[%t, %c0] : memref<2x15xf32>, vector<6xf32>
      vector.store %p, %out[%t, %c6] : memref<2x15xf32>, vector<9xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %out = gpu.alloc () : memref<2x15xf32>
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
        args(%out : memref<2x15xf32>)
    %h = memref.alloc() : memref<2x15xf32>
    gpu.memcpy %h, %out : memref<2x15xf32>, memref<2x15xf32>
    // Thread 0: M = [[0, 2, 4], [1, 3, 5]]; thread 1: each element + 1.
    // CHECK:      {{\[}}[0,   2,   4,   1,   3,   5,   1,   3,   5,   3,   13,   23,   5,   23,   41],
    // CHECK-NEXT:  [1,   3,   5,   2,   4,   6,   5,   11,   17,   11,   25,   39,   17,   39,   61]]
    %u = memref.cast %h : memref<2x15xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %h : memref<2x15xf32>
    gpu.dealloc %out : memref<2x15xf32>
    return
  }
}
