// --launch runs one kernel of a file without host code: its memref
// arguments are copied to device memory and back, and are the results.
// REQUIRES: kernels
// RUN: %gpu-runner %s --launch=kernels::saxpy --grid=3 --block=4 --input=2 --input=10xf32=1,2,3,4,5,6,7,8,9,10 --input=10xf32=1 | FileCheck %s --check-prefix=SAXPY
// RUN: %gpu-runner %s --launch=kernels::saxpy --grid=3 --block=4 --input=2 --input=10xf32=1,2,3,4,5,6,7,8,9,10 --input=10xf32=1 --output=- --output=- --expected-output=10xf32=1,2,3,4,5,6,7,8,9,10 --expected-output=10xf32=3,5,7,9,11,13,15,17,19,21 | FileCheck %s --check-prefix=EXPECTED
// A 2-D grid of 2-D blocks, and dynamic shared memory.
// RUN: %gpu-runner %s --launch=kernels::transpose --grid=2,3 --block=2,2 --input=6x4xi32=0,1,2,3,10,11,12,13,20,21,22,23,30,31,32,33,40,41,42,43,50,51,52,53 --input=4x6xi32=0 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %gpu-runner %s --launch=kernels::reverse --grid=2 --block=4,1,1 --dynamic-shared-memory=16 --input=8xi32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=SHARED
// A benchmark runs the kernel on the same buffers each time, as the last
// run left them, and reports the last run's results.
// RUN: %gpu-runner %s --launch=kernels::saxpy --grid=1 --block=4 --input=1 --input=4xf32=1 --input=4xf32=0 --benchmark-repetitions=2 --benchmark-warmup=1 2>&1 | FileCheck %s --check-prefix=BENCHMARK
// BENCHMARK: benchmark: kernel 'kernels::saxpy', backend
// BENCHMARK: result[1]: memref<?xf32>
// BENCHMARK-NEXT: [3,  3,  3,  3]
// The compile cache keeps the generated host code under its grid and block:
// the same launch hits, another grid misses and runs with it.
// RUN: rm -rf %t && %gpu-runner %s --cache-dir=%t --launch=kernels::saxpy --grid=3 --block=4 --input=2 --input=10xf32=1 --input=10xf32=0 > /dev/null
// RUN: %gpu-runner %s --cache-dir=%t --timing --launch=kernels::saxpy --grid=3 --block=4 --input=2 --input=4xf32=1 --input=4xf32=0 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: %gpu-runner %s --cache-dir=%t --timing --launch=kernels::saxpy --grid=1 --block=2 --input=2 --input=4xf32=1 --input=4xf32=0 2>&1 | FileCheck %s --check-prefix=MISS
// HIT: [2,  2,  2,  2]
// HIT: compile cache: hit
// MISS: [2,  2,  0,  0]
// MISS: compile cache: miss
// The launch's checks apply: the kernel's location is the launch's. Kernels'
// accesses are checked on the host backend only (docs/lowering.md: on CUDA
// and HIP --check-bounds checks the host code alone), so BOUNDS is the
// host's; the launch limits are every backend's.
// RUN: %if host %{ %expect-exit-1 %gpu-runner %s --launch=kernels::unguarded --grid=2 --block=4 --input=6xi32=0 --check-bounds 2>&1 | FileCheck %s --check-prefix=BOUNDS %}
// RUN: %expect-exit-1 %gpu-runner %s --launch=kernels::unguarded --grid=1 --block=2048 --input=6xi32=0 2>&1 | FileCheck %s --check-prefix=LIMIT

// SAXPY:      result[0]: memref<?xf32>
// SAXPY-NEXT: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10]
// SAXPY-NEXT: result[1]: memref<?xf32>
// SAXPY-NEXT: [3,  5,  7,  9,  11,  13,  15,  17,  19,  21]
// EXPECTED: expected outputs: 2 results (20 elements) matched
// TRANSPOSE:      result[0]: memref<?x?xi32>
// TRANSPOSE:      result[1]: memref<?x?xi32>
// TRANSPOSE-NEXT: [0,   10,   20,   30,   40,   50],
// TRANSPOSE-NEXT: [1,   11,   21,   31,   41,   51],
// TRANSPOSE-NEXT: [2,   12,   22,   32,   42,   52],
// TRANSPOSE-NEXT: [3,   13,   23,   33,   43,   53]]
// SHARED:      result[0]: memref<8xi32>
// SHARED-NEXT: [4,  3,  2,  1,  8,  7,  6,  5]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y = a * x + y, for the elements there are.
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %n = memref.dim %y, %c0 : memref<?xf32>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %p = arith.mulf %a, %xi : f32
        %s = arith.addf %p, %yi : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }

    // out[c][r] = in[r][c]: x runs over columns, y over rows.
    gpu.func @transpose(%in: memref<?x?xi32>, %out: memref<?x?xi32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %cx = arith.muli %bx, %dx : index
      %c = arith.addi %cx, %tx : index
      %ry = arith.muli %by, %dy : index
      %r = arith.addi %ry, %ty : index
      %v = memref.load %in[%r, %c] : memref<?x?xi32>
      memref.store %v, %out[%c, %r] : memref<?x?xi32>
      gpu.return
    }

    // Each block reverses its 4 elements through dynamic shared memory.
    gpu.func @reverse(%v: memref<8xi32>) kernel {
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %b, %c4 : index
      %i = arith.addi %base, %t : index
      %shared = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %s = memref.view %shared[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi32, #gpu.address_space<workgroup>>
      %x = memref.load %v[%i] : memref<8xi32>
      memref.store %x, %s[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %u = arith.subi %c3, %t : index
      %y = memref.load %s[%u] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %y, %v[%i] : memref<8xi32>
      gpu.return
    }

    // The host's limits, or the device's.
    // LIMIT: launch.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'unguarded': block size 2048 in x: a block has at most 1024 threads in x {{(and y and 64 in z, CUDA.s limits|on this device)}}
    gpu.func @unguarded(%v: memref<?xi32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %base = arith.muli %b, %d : index
      %i = arith.addi %base, %t : index
      %one = arith.constant 1 : i32
      // BOUNDS: launch.mlir:[[# @LINE + 1]]:7: error: memcheck: memref.store: out-of-bounds store in kernel 'unguarded', block (1, 0, 0), thread (2, 0, 0): index 6 of dimension 0 is outside [0, 6), the memref's size there
      memref.store %one, %v[%i] : memref<?xi32>
      gpu.return
    }
  }
}
