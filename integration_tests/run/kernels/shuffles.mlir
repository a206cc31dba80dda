// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// An xor butterfly sums the lane ids of a subgroup in every lane; a shuffle
// down by 1 leaves the last lane of the width without a source (`valid` is
// false there and the lane keeps its own value); up, idx and a width of 8.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shuffles(%sum: memref<32xi32>, %down: memref<32xi32>, %downValid: memref<32xi32>,
                       %up: memref<32xi32>, %idx: memref<32xf32>, %narrow: memref<32xi32>) kernel {
      %lane = gpu.lane_id
      %lane32 = arith.index_cast %lane : index to i32
      %c32 = arith.constant 32 : i32
      %c8 = arith.constant 8 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c16 = arith.constant 16 : i32
      %c5 = arith.constant 5 : i32

      %v1, %p1 = gpu.shuffle xor %lane32, %c1, %c32 : i32
      %s1 = arith.addi %lane32, %v1 : i32
      %v2, %p2 = gpu.shuffle xor %s1, %c2, %c32 : i32
      %s2 = arith.addi %s1, %v2 : i32
      %v3, %p3 = gpu.shuffle xor %s2, %c4, %c32 : i32
      %s3 = arith.addi %s2, %v3 : i32
      %v4, %p4 = gpu.shuffle xor %s3, %c8, %c32 : i32
      %s4 = arith.addi %s3, %v4 : i32
      %v5, %p5 = gpu.shuffle xor %s4, %c16, %c32 : i32
      %s5 = arith.addi %s4, %v5 : i32
      memref.store %s5, %sum[%lane] : memref<32xi32>

      %d, %dv = gpu.shuffle down %lane32, %c1, %c32 : i32
      memref.store %d, %down[%lane] : memref<32xi32>
      %dv32 = arith.extui %dv : i1 to i32
      memref.store %dv32, %downValid[%lane] : memref<32xi32>

      %u, %uv = gpu.shuffle up %lane32, %c2, %c32 : i32
      memref.store %u, %up[%lane] : memref<32xi32>

      // f32 through idx: everyone gets lane 5's value.
      %f = arith.sitofp %lane32 : i32 to f32
      %half = arith.constant 0.5 : f32
      %g = arith.addf %f, %half : f32
      %i, %iv = gpu.shuffle idx %g, %c5, %c32 : f32
      memref.store %i, %idx[%lane] : memref<32xf32>

      // Width 8: lanes 0-7 rotate among themselves, the others are not valid
      // and keep their value.
      %r, %rv = gpu.shuffle xor %lane32, %c4, %c8 : i32
      %minus = arith.constant -1 : i32
      %shown = arith.select %rv, %r, %minus : i32
      memref.store %shown, %narrow[%lane] : memref<32xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @show(%d: memref<32xi32>) {
    %h = memref.alloc() : memref<32xi32>
    gpu.memcpy %h, %d : memref<32xi32>, memref<32xi32>
    %u = memref.cast %h : memref<32xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<32xi32>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %sum = gpu.alloc () : memref<32xi32>
    %down = gpu.alloc () : memref<32xi32>
    %downValid = gpu.alloc () : memref<32xi32>
    %up = gpu.alloc () : memref<32xi32>
    %idx = gpu.alloc () : memref<32xf32>
    %narrow = gpu.alloc () : memref<32xi32>
    gpu.launch_func @kernels::@shuffles blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%sum : memref<32xi32>, %down : memref<32xi32>, %downValid : memref<32xi32>,
             %up : memref<32xi32>, %idx : memref<32xf32>, %narrow : memref<32xi32>)
    // CHECK: [496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496,  496]
    call @show(%sum) : (memref<32xi32>) -> ()
    // CHECK: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  31]
    call @show(%down) : (memref<32xi32>) -> ()
    // CHECK: [1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  0]
    call @show(%downValid) : (memref<32xi32>) -> ()
    // CHECK: [0,  1,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29]
    call @show(%up) : (memref<32xi32>) -> ()
    %hf = memref.alloc() : memref<32xf32>
    gpu.memcpy %hf, %idx : memref<32xf32>, memref<32xf32>
    %uf = memref.cast %hf : memref<32xf32> to memref<*xf32>
    // CHECK: [5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5,  5.5]
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    // CHECK: [4,  5,  6,  7,  0,  1,  2,  3,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
    call @show(%narrow) : (memref<32xi32>) -> ()
    gpu.dealloc %sum : memref<32xi32>
    gpu.dealloc %down : memref<32xi32>
    gpu.dealloc %downValid : memref<32xi32>
    gpu.dealloc %up : memref<32xi32>
    gpu.dealloc %idx : memref<32xf32>
    gpu.dealloc %narrow : memref<32xi32>
    return
  }
}
