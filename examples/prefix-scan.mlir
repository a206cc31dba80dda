// An inclusive prefix sum of 256 integers in one block, with shuffles, as a
// CUDA programmer writes it with __shfl_up_sync and warpSize: each subgroup
// (a warp of 32 threads on CUDA, a wave of 64 on most AMD GPUs) scans its
// values in log2(size) shuffle steps; the last lane of each subgroup writes
// its subgroup's total to workgroup memory; after a barrier, the first
// subgroup scans those totals (8 or 4) the same way; after another barrier,
// each thread adds the total of the subgroups before its own. The last
// thread prints the block's total from the kernel with gpu.printf.
//
// The input is x[i] = i mod 7 + 1, so y[i] = x[0] + ... + x[i].
//
//   scripts/run examples/prefix-scan.mlir
//
// prints the total, y (all 256 elements on one line), and how many elements
// differ from the sums counted again on the host, one after another:
//
//   block total: 1018
//   [1,  3,  6,  10,  15,  21,  28,  29,  31,  34,  ...  1011,  1014,  1018]
//   wrong elements: 0
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scan(%x: memref<256xi32>, %y: memref<256xi32>)
        workgroup(%totals: memref<8xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %subgroup = gpu.subgroup_id : index
      %size = gpu.subgroup_size : index
      %width = arith.index_cast %size : index to i32
      %v = memref.load %x[%tid] : memref<256xi32>
      // for (d = 1; d < warpSize; d *= 2) { u = __shfl_up_sync(~0u, s, d); ... }
      // Lanes below d get an invalid value (%ok false) and add nothing.
      %scanned:2 = scf.while (%s = %v, %d = %one) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi ult, %d, %width : i32
        scf.condition(%more) %s, %d : i32, i32
      } do {
      ^bb0(%s: i32, %d: i32):
        %u, %ok = gpu.shuffle up %s, %d, %width : i32
        %add = arith.select %ok, %u, %zero : i32
        %next = arith.addi %s, %add : i32
        %twice = arith.shli %d, %one : i32
        scf.yield %next, %twice : i32, i32
      }
      %last_lane = arith.subi %size, %c1 : index
      %last = arith.cmpi eq, %lane, %last_lane : index
      scf.if %last {
        memref.store %scanned#0, %totals[%subgroup] : memref<8xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // The first subgroup scans the totals, its lanes past them adding
      // zeros. Every subgroup runs the shuffles, as all lanes of a subgroup
      // must.
      %subgroups = arith.divui %c256, %size : index
      %first = arith.cmpi eq, %subgroup, %c0 : index
      %in_range = arith.cmpi ult, %lane, %subgroups : index
      %holds = arith.andi %first, %in_range : i1
      %t = scf.if %holds -> i32 {
        %t = memref.load %totals[%lane] : memref<8xi32, #gpu.address_space<workgroup>>
        scf.yield %t : i32
      } else {
        scf.yield %zero : i32
      }
      %t_scanned:2 = scf.while (%s = %t, %d = %one) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi ult, %d, %width : i32
        scf.condition(%more) %s, %d : i32, i32
      } do {
      ^bb0(%s: i32, %d: i32):
        %u, %ok = gpu.shuffle up %s, %d, %width : i32
        %add = arith.select %ok, %u, %zero : i32
        %next = arith.addi %s, %add : i32
        %twice = arith.shli %d, %one : i32
        scf.yield %next, %twice : i32, i32
      }
      gpu.barrier
      scf.if %holds {
        memref.store %t_scanned#0, %totals[%lane] : memref<8xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // Add the totals of the subgroups before this one.
      %later = arith.cmpi ugt, %subgroup, %c0 : index
      %result = scf.if %later -> i32 {
        %before = arith.subi %subgroup, %c1 : index
        %offset = memref.load %totals[%before] : memref<8xi32, #gpu.address_space<workgroup>>
        %r = arith.addi %scanned#0, %offset : i32
        scf.yield %r : i32
      } else {
        scf.yield %scanned#0 : i32
      }
      memref.store %result, %y[%tid] : memref<256xi32>
      // The last thread's sum is the block's total: printf from the kernel.
      %is_last = arith.cmpi eq, %tid, %c255 : index
      scf.if %is_last {
        gpu.printf "block total: %d\n", %result : i32
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %hx = memref.alloc() : memref<256xi32>
    scf.for %i = %c0 to %c256 step %c1 {
      %r = arith.remui %i, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %v = arith.addi %ri, %one : i32
      memref.store %v, %hx[%i] : memref<256xi32>
    }
    %x = gpu.alloc () : memref<256xi32>
    %y = gpu.alloc () : memref<256xi32>
    gpu.memcpy %x, %hx : memref<256xi32>, memref<256xi32>
    gpu.launch_func @kernels::@scan blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<256xi32>, %y : memref<256xi32>)
    %hy = memref.alloc() : memref<256xi32>
    gpu.memcpy %hy, %y : memref<256xi32>, memref<256xi32>
    %u = memref.cast %hy : memref<256xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // The same sum counted on the host, one element after another.
    %wrong:2 = scf.for %i = %c0 to %c256 step %c1 iter_args(%sum = %zero, %count = %zero) -> (i32, i32) {
      %v = memref.load %hx[%i] : memref<256xi32>
      %s = arith.addi %sum, %v : i32
      %got = memref.load %hy[%i] : memref<256xi32>
      %ok = arith.cmpi eq, %got, %s : i32
      %add = arith.select %ok, %zero, %one : i32
      %c = arith.addi %count, %add : i32
      scf.yield %s, %c : i32, i32
    }
    vector.print str "wrong elements: "
    vector.print %wrong#1 : i32
    gpu.dealloc %x : memref<256xi32>
    gpu.dealloc %y : memref<256xi32>
    memref.dealloc %hx : memref<256xi32>
    memref.dealloc %hy : memref<256xi32>
    return
  }
}
