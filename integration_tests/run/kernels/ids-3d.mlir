// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// The id and size ops of a gpu.func in all three dimensions, on a grid of
// 2 x 3 x 2 blocks of 2 x 1 x 3 threads: gpu.grid_dim and gpu.block_dim give
// the launch's sizes, gpu.global_id is block_id * block_dim + thread_id in
// each dimension (the gpu dialect's definition of global_id), and
// gpu.block_id / gpu.thread_id count from 0.

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // The thread with global ids (x, y, z) writes into row
    // (z * 3 + y) * 4 + x: its sizes in column 0, grid x * 100 + y * 10 + z
    // and block x * 100 + y * 10 + z; its global ids in column 1, and its
    // block and thread ids in columns 2 and 3, each as x * 100 + y * 10 + z.
    gpu.func @ids(%out: memref<72x4xi32>) kernel {
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %gz = gpu.grid_dim z
      %sx = gpu.block_dim x
      %sy = gpu.block_dim y
      %sz = gpu.block_dim z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %ix = gpu.global_id x
      %iy = gpu.global_id y
      %iz = gpu.global_id z
      %grid = affine.apply affine_map<(a, b, c, d, e, f) -> ((a * 100 + b * 10 + c) * 1000 + d * 100 + e * 10 + f)>(%gx, %gy, %gz, %sx, %sy, %sz)
      %global = affine.apply affine_map<(a, b, c) -> (a * 100 + b * 10 + c)>(%ix, %iy, %iz)
      %block = affine.apply affine_map<(a, b, c) -> (a * 100 + b * 10 + c)>(%bx, %by, %bz)
      %thread = affine.apply affine_map<(a, b, c) -> (a * 100 + b * 10 + c)>(%tx, %ty, %tz)
      %row = affine.apply affine_map<(x, y, z) -> ((z * 3 + y) * 4 + x)>(%ix, %iy, %iz)
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %v0 = arith.index_cast %grid : index to i32
      %v1 = arith.index_cast %global : index to i32
      %v2 = arith.index_cast %block : index to i32
      %v3 = arith.index_cast %thread : index to i32
      memref.store %v0, %out[%row, %c0] : memref<72x4xi32>
      memref.store %v1, %out[%row, %c1] : memref<72x4xi32>
      memref.store %v2, %out[%row, %c2] : memref<72x4xi32>
      memref.store %v3, %out[%row, %c3] : memref<72x4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %out = gpu.alloc () : memref<72x4xi32>
    gpu.launch_func @kernels::@ids blocks in (%c2, %c3, %c2)
        threads in (%c2, %c1, %c3) args(%out : memref<72x4xi32>)
    %h = memref.alloc() : memref<72x4xi32>
    gpu.memcpy %h, %out : memref<72x4xi32>, memref<72x4xi32>
    %u = memref.cast %h : memref<72x4xi32> to memref<*xi32>
    // CHECK:      {{\[}}[232213,   0,   0,   0],
    // CHECK-NEXT:  [232213,   100,   0,   100],
    // CHECK-NEXT:  [232213,   200,   100,   0],
    // CHECK-NEXT:  [232213,   300,   100,   100],
    // CHECK-NEXT:  [232213,   10,   10,   0],
    // CHECK-NEXT:  [232213,   110,   10,   100],
    // CHECK-NEXT:  [232213,   210,   110,   0],
    // CHECK-NEXT:  [232213,   310,   110,   100],
    // CHECK-NEXT:  [232213,   20,   20,   0],
    // CHECK-NEXT:  [232213,   120,   20,   100],
    // CHECK-NEXT:  [232213,   220,   120,   0],
    // CHECK-NEXT:  [232213,   320,   120,   100],
    // CHECK-NEXT:  [232213,   1,   0,   1],
    // CHECK-NEXT:  [232213,   101,   0,   101],
    // CHECK-NEXT:  [232213,   201,   100,   1],
    // CHECK-NEXT:  [232213,   301,   100,   101],
    // CHECK-NEXT:  [232213,   11,   10,   1],
    // CHECK-NEXT:  [232213,   111,   10,   101],
    // CHECK-NEXT:  [232213,   211,   110,   1],
    // CHECK-NEXT:  [232213,   311,   110,   101],
    // CHECK-NEXT:  [232213,   21,   20,   1],
    // CHECK-NEXT:  [232213,   121,   20,   101],
    // CHECK-NEXT:  [232213,   221,   120,   1],
    // CHECK-NEXT:  [232213,   321,   120,   101],
    // CHECK-NEXT:  [232213,   2,   0,   2],
    // CHECK-NEXT:  [232213,   102,   0,   102],
    // CHECK-NEXT:  [232213,   202,   100,   2],
    // CHECK-NEXT:  [232213,   302,   100,   102],
    // CHECK-NEXT:  [232213,   12,   10,   2],
    // CHECK-NEXT:  [232213,   112,   10,   102],
    // CHECK-NEXT:  [232213,   212,   110,   2],
    // CHECK-NEXT:  [232213,   312,   110,   102],
    // CHECK-NEXT:  [232213,   22,   20,   2],
    // CHECK-NEXT:  [232213,   122,   20,   102],
    // CHECK-NEXT:  [232213,   222,   120,   2],
    // CHECK-NEXT:  [232213,   322,   120,   102],
    // CHECK-NEXT:  [232213,   3,   1,   0],
    // CHECK-NEXT:  [232213,   103,   1,   100],
    // CHECK-NEXT:  [232213,   203,   101,   0],
    // CHECK-NEXT:  [232213,   303,   101,   100],
    // CHECK-NEXT:  [232213,   13,   11,   0],
    // CHECK-NEXT:  [232213,   113,   11,   100],
    // CHECK-NEXT:  [232213,   213,   111,   0],
    // CHECK-NEXT:  [232213,   313,   111,   100],
    // CHECK-NEXT:  [232213,   23,   21,   0],
    // CHECK-NEXT:  [232213,   123,   21,   100],
    // CHECK-NEXT:  [232213,   223,   121,   0],
    // CHECK-NEXT:  [232213,   323,   121,   100],
    // CHECK-NEXT:  [232213,   4,   1,   1],
    // CHECK-NEXT:  [232213,   104,   1,   101],
    // CHECK-NEXT:  [232213,   204,   101,   1],
    // CHECK-NEXT:  [232213,   304,   101,   101],
    // CHECK-NEXT:  [232213,   14,   11,   1],
    // CHECK-NEXT:  [232213,   114,   11,   101],
    // CHECK-NEXT:  [232213,   214,   111,   1],
    // CHECK-NEXT:  [232213,   314,   111,   101],
    // CHECK-NEXT:  [232213,   24,   21,   1],
    // CHECK-NEXT:  [232213,   124,   21,   101],
    // CHECK-NEXT:  [232213,   224,   121,   1],
    // CHECK-NEXT:  [232213,   324,   121,   101],
    // CHECK-NEXT:  [232213,   5,   1,   2],
    // CHECK-NEXT:  [232213,   105,   1,   102],
    // CHECK-NEXT:  [232213,   205,   101,   2],
    // CHECK-NEXT:  [232213,   305,   101,   102],
    // CHECK-NEXT:  [232213,   15,   11,   2],
    // CHECK-NEXT:  [232213,   115,   11,   102],
    // CHECK-NEXT:  [232213,   215,   111,   2],
    // CHECK-NEXT:  [232213,   315,   111,   102],
    // CHECK-NEXT:  [232213,   25,   21,   2],
    // CHECK-NEXT:  [232213,   125,   21,   102],
    // CHECK-NEXT:  [232213,   225,   121,   2],
    // CHECK-NEXT:  [232213,   325,   121,   102]]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<72x4xi32>
    memref.dealloc %h : memref<72x4xi32>
    return
  }
}
