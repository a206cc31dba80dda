// Pieces between barriers whose work all runs under `thread_id_x < u`: the
// host backend loops over x only up to min(u, block size in x), in every
// row of a 2-D block. A bound below the block's size in x (5 of 8) and above
// it (20), the comparison both ways round, a piece where every thread also
// works, and pieces with values used after the next barrier. On fibers, with
// --no-barrier-splitting, the same.
// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @levels(%u: index, %out: memref<?xi32>, %flags: memref<?xi32>, %first: index)
        workgroup(%shared: memref<24xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      // l = y * 8 + x, start = 100 y + x.
      %row = arith.muli %ty, %bdx : index
      %l = arith.addi %row, %tx : index
      %c100 = arith.constant 100 : index
      %y100 = arith.muli %ty, %c100 : index
      %start_index = arith.addi %y100, %tx : index
      %start = arith.index_cast %start_index : index to i32
      memref.store %start, %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // + 1000 below u.
      %below = arith.cmpi ult, %tx, %u : index
      scf.if %below {
        %v = memref.load %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
        %c1000 = arith.constant 1000 : i32
        %w = arith.addi %v, %c1000 : i32
        memref.store %w, %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // + 10000 below u, written u > x.
      %above = arith.cmpi ugt, %u, %tx : index
      scf.if %above {
        %v = memref.load %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
        %c10000 = arith.constant 10000 : i32
        %w = arith.addi %v, %c10000 : i32
        memref.store %w, %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // + 1 for every thread, + 100000 more below u, in one piece.
      %v1 = memref.load %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      %one = arith.constant 1 : i32
      %w1 = arith.addi %v1, %one : i32
      memref.store %w1, %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      %again = arith.cmpi ult, %tx, %u : index
      scf.if %again {
        %v = memref.load %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
        %c100000 = arith.constant 100000 : i32
        %w = arith.addi %v, %c100000 : i32
        memref.store %w, %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // Whether x < u, used after the next barrier, and v1 + 7, which every
      // thread computes in this piece and keeps past the barrier.
      %c7 = arith.constant 7 : i32
      %plus = arith.addi %v1, %c7 : i32
      %kept = arith.cmpi ult, %tx, %u : index
      scf.if %kept {
        %v = memref.load %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
        memref.store %v, %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %at = arith.addi %first, %l : index
      %r = memref.load %shared[%l] : memref<24xi32, #gpu.address_space<workgroup>>
      memref.store %r, %out[%at] : memref<?xi32>
      %kept_i32 = arith.extui %kept : i1 to i32
      %c10 = arith.constant 10 : i32
      %plus10 = arith.muli %plus, %c10 : i32
      %flag = arith.addi %plus10, %kept_i32 : i32
      memref.store %flag, %flags[%at] : memref<?xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c20 = arith.constant 20 : index
    %c24 = arith.constant 24 : index
    %c48 = arith.constant 48 : index
    %out = gpu.alloc (%c48) : memref<?xi32>
    %flags = gpu.alloc (%c48) : memref<?xi32>
    gpu.launch_func @kernels::@levels blocks in (%c1, %c1, %c1) threads in (%c8, %c3, %c1)
        args(%c5 : index, %out : memref<?xi32>, %flags : memref<?xi32>, %c0 : index)
    gpu.launch_func @kernels::@levels blocks in (%c1, %c1, %c1) threads in (%c8, %c3, %c1)
        args(%c20 : index, %out : memref<?xi32>, %flags : memref<?xi32>, %c24 : index)
    %h = memref.alloc() : memref<2x24xi32>
    %hf = memref.alloc() : memref<2x24xi32>
    %h1 = memref.reinterpret_cast %h to offset: [0], sizes: [48], strides: [1] : memref<2x24xi32> to memref<48xi32>
    %hf1 = memref.reinterpret_cast %hf to offset: [0], sizes: [48], strides: [1] : memref<2x24xi32> to memref<48xi32>
    %h2 = memref.cast %h1 : memref<48xi32> to memref<?xi32>
    %hf2 = memref.cast %hf1 : memref<48xi32> to memref<?xi32>
    gpu.memcpy %h2, %out : memref<?xi32>, memref<?xi32>
    gpu.memcpy %hf2, %flags : memref<?xi32>, memref<?xi32>
    // u = 5: x < 5 gets 111001 more in each of the three rows; u = 20: all.
    // CHECK:      {{\[}}[111001,   111002,   111003,   111004,   111005,   6,   7,   8,   111101,   111102,   111103,   111104,   111105,   106,   107,   108,   111201,   111202,   111203,   111204,   111205,   206,   207,   208],
    // CHECK-NEXT:  [111001,   111002,   111003,   111004,   111005,   111006,   111007,   111008,   111101,   111102,   111103,   111104,   111105,   111106,   111107,   111108,   111201,   111202,   111203,   111204,   111205,   111206,   111207,   111208]]
    %u = memref.cast %h : memref<2x24xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    // (v1 + 7) * 10 + (x < u), v1 = 100 y + x, + 11000 below u.
    // CHECK:      {{\[}}[110071,   110081,   110091,   110101,   110111,   120,   130,   140,   111071,   111081,   111091,   111101,   111111,   1120,   1130,   1140,   112071,   112081,   112091,   112101,   112111,   2120,   2130,   2140],
    // CHECK-NEXT:  [110071,   110081,   110091,   110101,   110111,   110121,   110131,   110141,   111071,   111081,   111091,   111101,   111111,   111121,   111131,   111141,   112071,   112081,   112091,   112101,   112111,   112121,   112131,   112141]]
    %uf = memref.cast %hf : memref<2x24xi32> to memref<*xi32>
    call @printMemrefI32(%uf) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<?xi32>
    gpu.dealloc %flags : memref<?xi32>
    memref.dealloc %h : memref<2x24xi32>
    memref.dealloc %hf : memref<2x24xi32>
    return
  }
}
