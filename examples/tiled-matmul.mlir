// A tiled matrix product C = A * B, the CUDA programmer's first kernel with
// shared memory: each block of 8x8 threads computes an 8x8 tile of C. For
// each 8-wide step along k it loads a tile of A and a tile of B into
// workgroup (shared) memory, one element per thread, waits at a barrier
// (__syncthreads), accumulates the tile's products, and waits again before
// the tiles are overwritten.
//
// A is 16x24 with A[i][k] = (i * k + i) mod 7 - 3, B is 24x16 with
// B[k][j] = (k * j + k) mod 5 - 2: small integers, so every sum is exact in
// f32, and no two tiles alike, so a tile read from the wrong place shows.
// The host computes the same product the plain way and counts the elements
// that differ.
//
//   scripts/run examples/tiled-matmul.mlir
//
// prints C (16 rows), then
//
//   wrong elements: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // __shared__ float ta[8][8], tb[8][8];
    gpu.func @matmul(%a: memref<16x24xf32>, %b: memref<24x16xf32>, %c: memref<16x16xf32>)
        workgroup(%ta: memref<8x8xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<8x8xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c24 = arith.constant 24 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = gpu.global_id y
      %col = gpu.global_id x
      %sum = scf.for %k0 = %c0 to %c24 step %c8 iter_args(%acc = %zero) -> f32 {
        // ta[ty][tx] = a[row][k0 + tx]; tb[ty][tx] = b[k0 + ty][col];
        %ka = arith.addi %k0, %tx : index
        %va = memref.load %a[%row, %ka] : memref<16x24xf32>
        memref.store %va, %ta[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %vb = memref.load %b[%kb, %col] : memref<24x16xf32>
        memref.store %vb, %tb[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        // __syncthreads(): the tiles are complete.
        gpu.barrier
        %partial = scf.for %k = %c0 to %c8 step %c1 iter_args(%p = %acc) -> f32 {
          %x = memref.load %ta[%ty, %k] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %xy = arith.mulf %x, %y : f32
          %q = arith.addf %p, %xy : f32
          scf.yield %q : f32
        }
        // __syncthreads(): everyone is done with the tiles.
        gpu.barrier
        scf.yield %partial : f32
      }
      memref.store %sum, %c[%row, %col] : memref<16x16xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %ha = memref.alloc() : memref<16x24xf32>
    %hb = memref.alloc() : memref<24x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c24 step %c1 {
        %ik = arith.muli %i, %k : index
        %s = arith.addi %ik, %i : index
        %m = arith.remui %s, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        %v = arith.subf %mf, %three : f32
        memref.store %v, %ha[%i, %k] : memref<16x24xf32>
      }
    }
    scf.for %k = %c0 to %c24 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %kj = arith.muli %k, %j : index
        %s = arith.addi %kj, %k : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f32
        %v = arith.subf %mf, %two : f32
        memref.store %v, %hb[%k, %j] : memref<24x16xf32>
      }
    }
    %a = gpu.alloc () : memref<16x24xf32>
    %b = gpu.alloc () : memref<24x16xf32>
    %c = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %a, %ha : memref<16x24xf32>, memref<16x24xf32>
    gpu.memcpy %b, %hb : memref<24x16xf32>, memref<24x16xf32>
    // matmul<<<dim3(2, 2), dim3(8, 8)>>>(a, b, c)
    gpu.launch_func @kernels::@matmul blocks in (%c2, %c2, %c1) threads in (%c8, %c8, %c1)
        args(%a : memref<16x24xf32>, %b : memref<24x16xf32>, %c : memref<16x16xf32>)
    %hc = memref.alloc() : memref<16x16xf32>
    gpu.memcpy %hc, %c : memref<16x16xf32>, memref<16x16xf32>
    %u = memref.cast %hc : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()

    // The plain triple loop on the host, for comparison.
    %zero = arith.constant 0.0 : f32
    %none = arith.constant 0 : i32
    %add1 = arith.constant 1 : i32
    %wrong = scf.for %i = %c0 to %c16 step %c1 iter_args(%w = %none) -> i32 {
      %wi = scf.for %j = %c0 to %c16 step %c1 iter_args(%wj = %w) -> i32 {
        %dot = scf.for %k = %c0 to %c24 step %c1 iter_args(%acc = %zero) -> f32 {
          %x = memref.load %ha[%i, %k] : memref<16x24xf32>
          %y = memref.load %hb[%k, %j] : memref<24x16xf32>
          %xy = arith.mulf %x, %y : f32
          %next = arith.addf %acc, %xy : f32
          scf.yield %next : f32
        }
        %got = memref.load %hc[%i, %j] : memref<16x16xf32>
        %same = arith.cmpf oeq, %got, %dot : f32
        %inc = arith.select %same, %none, %add1 : i32
        %next = arith.addi %wj, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %wi : i32
    }
    vector.print str "wrong elements: "
    vector.print %wrong : i32
    gpu.dealloc %a : memref<16x24xf32>
    gpu.dealloc %b : memref<24x16xf32>
    gpu.dealloc %c : memref<16x16xf32>
    memref.dealloc %ha : memref<16x24xf32>
    memref.dealloc %hb : memref<24x16xf32>
    memref.dealloc %hc : memref<16x16xf32>
    return
  }
}
