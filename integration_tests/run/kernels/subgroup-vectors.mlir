// RUN: %gpu-runner %s | FileCheck %s --check-prefix=LANES%{subgroup}
// RUN: %gpu-runner --no-subgroup-vectors %s | FileCheck %s --check-prefix=LANES%{subgroup}
// RUN: %gpu-runner --check-bounds %s | FileCheck %s --check-prefix=LANES%{subgroup}

// One kernel of what the host backend runs a subgroup at a time, its
// lanes' values in vectors (docs/host-backend.md), launched with 64 x 2
// threads a block, which runs so, and with 16 x 8, whose rows are shorter
// than a subgroup and which runs as loops over the threads: the same 128
// threads, linear id l = x + block_dim_x * y, lane l mod 32, must compute
// the same. Each row of the output is printed as sum over l of (l + 1) *
// row[l]; the expected figures are those of a model of the kernel in
// plain arithmetic.
//
// Row 0: a branch on a per-thread condition with results, nested, where
// the threads that skip a division would divide by 0 (a GPU thread that
// does not take a branch runs nothing of it); a load at a permuted index.
// Row 1: a store to a permuted index. The atomic add: every thread adds l.
// Row 2: a grid-stride loop, from l to 256 by the block's 128 threads.
// Rows 3 to 5: a shuffle idx whose source lane differs per lane, a
// broadcast of lane 5, a shuffle down 3 of width 16 (valid for the lanes
// below 13, the others keep their own value; the row adds `valid`).
// Row 6: a comparison's result kept across a barrier.
// Row 7: the first thread alone (`if (l == 0)`), the others l + 1.
//
// Where a subgroup has 64 lanes (HIP's default gfx90a, and its stand-in),
// a lane is l mod 64, and the shuffle idx of width 32 is not valid for
// lanes 32 to 63, which keep their own value (gpu.shuffle: a lane at or
// past the width has no source), so rows 3 to 5 differ.

// LANES32-COUNT-2: rows, 1961522, 559232, 2454784, 691968, 601408, 1418036, 14336, 707362, atomic, 8128
// LANES64-COUNT-2: rows, 1961522, 559232, 2454784, 695488, 436544, 1405114, 14336, 707362, atomic, 8128

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @lanes(%d: memref<128xi32>, %in: memref<256xi32>,
                    %out: memref<8x128xi32>, %count: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i3 = arith.constant 3 : i32
      %i5 = arith.constant 5 : i32
      %i7 = arith.constant 7 : i32
      %i16 = arith.constant 16 : i32
      %i32 = arith.constant 32 : i32
      %i99 = arith.constant 99 : i32
      %i500 = arith.constant 500 : i32
      %i1000 = arith.constant 1000 : i32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %row = arith.muli %bdx, %ty : index
      %l = arith.addi %tx, %row : index
      %l32 = arith.index_cast %l : index to i32

      %m3 = arith.remui %l, %c3 : index
      %third = arith.cmpi eq, %m3, %c0 : index
      %r0 = scf.if %third -> i32 {
        %a = memref.load %d[%l] : memref<128xi32>
        %q = arith.divui %i1000, %a : i32
        scf.yield %q : i32
      } else {
        %m2 = arith.remui %l, %c2 : index
        %odd = arith.cmpi eq, %m2, %c1 : index
        %r = scf.if %odd -> i32 {
          %twice = arith.muli %l32, %i2 : i32
          scf.yield %twice : i32
        } else {
          %l7 = arith.muli %l, %c7 : index
          %k = arith.remui %l7, %c128 : index
          %g = memref.load %d[%k] : memref<128xi32>
          %g500 = arith.addi %g, %i500 : i32
          scf.yield %g500 : i32
        }
        scf.yield %r : i32
      }
      memref.store %r0, %out[%c0, %l] : memref<8x128xi32>

      %l5 = arith.muli %l, %c5 : index
      %p = arith.remui %l5, %c128 : index
      memref.store %l32, %out[%c1, %p] : memref<8x128xi32>
      %old = memref.atomic_rmw addi %l32, %count[%c0] : (i32, memref<1xi32>) -> i32

      %threads = arith.muli %bdx, %bdy : index
      %acc = scf.for %i = %l to %c256 step %threads iter_args(%s = %i0) -> i32 {
        %v = memref.load %in[%i] : memref<256xi32>
        %next = arith.addi %s, %v : i32
        scf.yield %next : i32
      }
      memref.store %acc, %out[%c2, %l] : memref<8x128xi32>

      %lane = gpu.lane_id
      %lane3 = arith.muli %lane, %c3 : index
      %src = arith.remui %lane3, %c32 : index
      %src32 = arith.index_cast %src : index to i32
      %x, %xok = gpu.shuffle idx %l32, %src32, %i32 : i32
      memref.store %x, %out[%c3, %l] : memref<8x128xi32>
      %b = gpu.subgroup_broadcast %l32, specific_lane %i5 : i32
      memref.store %b, %out[%c4, %l] : memref<8x128xi32>
      %down, %downOk = gpu.shuffle down %l32, %i3, %i16 : i32
      %down2 = arith.muli %down, %i2 : i32
      %okBit = arith.extui %downOk : i1 to i32
      %downRow = arith.addi %down2, %okBit : i32
      memref.store %downRow, %out[%c5, %l] : memref<8x128xi32>

      %m4 = arith.remui %l, %c4 : index
      %flag = arith.cmpi eq, %m4, %c1 : index
      gpu.barrier
      %f = arith.select %flag, %i7, %i0 : i32
      memref.store %f, %out[%c6, %l] : memref<8x128xi32>

      %first = arith.cmpi eq, %l, %c0 : index
      scf.if %first {
        memref.store %i99, %out[%c7, %c0] : memref<8x128xi32>
      } else {
        %next = arith.addi %l32, %i1 : i32
        memref.store %next, %out[%c7, %l] : memref<8x128xi32>
      }
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printString(!llvm.ptr)
  llvm.mlir.global internal constant @rows("rows\00")
  llvm.mlir.global internal constant @atomic("atomic\00")
  func.func private @printComma()
  func.func private @printNewline()

  // Launches @lanes with `x` x `y` threads and prints its rows' sums.
  func.func @run(%x: index, %y: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %d = memref.alloc() : memref<128xi32>
    scf.for %k = %c0 to %c128 step %c1 {
      %rem = arith.remui %k, %c3 : index
      %isThird = arith.cmpi eq, %rem, %c0 : index
      %q = arith.divui %k, %c3 : index
      %q32 = arith.index_cast %q : index to i32
      %q1 = arith.addi %q32, %i1 : i32
      %v = arith.select %isThird, %q1, %i0 : i32
      memref.store %v, %d[%k] : memref<128xi32>
    }
    %in = memref.alloc() : memref<256xi32>
    scf.for %k = %c0 to %c256 step %c1 {
      %k32 = arith.index_cast %k : index to i32
      memref.store %k32, %in[%k] : memref<256xi32>
    }
    %gd = gpu.alloc () : memref<128xi32>
    %gin = gpu.alloc () : memref<256xi32>
    %gout = gpu.alloc () : memref<8x128xi32>
    %gcount = gpu.alloc () : memref<1xi32>
    gpu.memcpy %gd, %d : memref<128xi32>, memref<128xi32>
    gpu.memcpy %gin, %in : memref<256xi32>, memref<256xi32>
    gpu.memset %gout, %i0 : memref<8x128xi32>, i32
    gpu.memset %gcount, %i0 : memref<1xi32>, i32
    gpu.launch_func @kernels::@lanes blocks in (%c1, %c1, %c1) threads in (%x, %y, %c1)
        args(%gd : memref<128xi32>, %gin : memref<256xi32>,
             %gout : memref<8x128xi32>, %gcount : memref<1xi32>)
    %out = memref.alloc() : memref<8x128xi32>
    %count = memref.alloc() : memref<1xi32>
    gpu.memcpy %out, %gout : memref<8x128xi32>, memref<8x128xi32>
    gpu.memcpy %count, %gcount : memref<1xi32>, memref<1xi32>

    %rows = llvm.mlir.addressof @rows : !llvm.ptr
    func.call @printString(%rows) : (!llvm.ptr) -> ()
    scf.for %r = %c0 to %c8 step %c1 {
      %sum = scf.for %l = %c0 to %c128 step %c1 iter_args(%s = %i0) -> i32 {
        %v = memref.load %out[%r, %l] : memref<8x128xi32>
        %l1 = arith.addi %l, %c1 : index
        %w = arith.index_cast %l1 : index to i32
        %term = arith.muli %v, %w : i32
        %next = arith.addi %s, %term : i32
        scf.yield %next : i32
      }
      %sum64 = arith.extsi %sum : i32 to i64
      func.call @printComma() : () -> ()
      func.call @printI64(%sum64) : (i64) -> ()
    }
    func.call @printComma() : () -> ()
    %atomic = llvm.mlir.addressof @atomic : !llvm.ptr
    func.call @printString(%atomic) : (!llvm.ptr) -> ()
    func.call @printComma() : () -> ()
    %total = memref.load %count[%c0] : memref<1xi32>
    %total64 = arith.extsi %total : i32 to i64
    func.call @printI64(%total64) : (i64) -> ()
    func.call @printNewline() : () -> ()

    gpu.dealloc %gd : memref<128xi32>
    gpu.dealloc %gin : memref<256xi32>
    gpu.dealloc %gout : memref<8x128xi32>
    gpu.dealloc %gcount : memref<1xi32>
    memref.dealloc %d : memref<128xi32>
    memref.dealloc %in : memref<256xi32>
    memref.dealloc %out : memref<8x128xi32>
    memref.dealloc %count : memref<1xi32>
    return
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    func.call @run(%c64, %c2) : (index, index) -> ()
    func.call @run(%c16, %c8) : (index, index) -> ()
    return
  }
}
