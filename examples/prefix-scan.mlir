// An inclusive prefix sum of 256 integers in one block, with shuffles, as a
// CUDA programmer writes it with __shfl_up_sync: each subgroup (warp) of 32
// threads scans its values in 5 shuffle steps; lane 31 of each subgroup
// writes its subgroup's total to workgroup memory; after a barrier, the
// first subgroup scans those 8 totals the same way; after another barrier,
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
      %c5 = arith.constant 5 : index
      %c8 = arith.constant 8 : index
      %c31 = arith.constant 31 : index
      %c255 = arith.constant 255 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %subgroup = gpu.subgroup_id : index
      %v = memref.load %x[%tid] : memref<256xi32>
      %scanned = scf.for %step = %c0 to %c5 step %c1 iter_args(%s = %v) -> i32 {
        // for (d = 1; d < 32; d *= 2) { u = __shfl_up_sync(~0u, s, d); ... }
        // Lanes below d get an invalid value (%ok false) and add nothing.
        %step32 = arith.index_cast %step : index to i32
        %d = arith.shli %one, %step32 : i32
        %u, %ok = gpu.shuffle up %s, %d, %c32 : i32
        %add = arith.select %ok, %u, %zero : i32
        %next = arith.addi %s, %add : i32
        scf.yield %next : i32
      }
      %last = arith.cmpi eq, %lane, %c31 : index
      scf.if %last {
        memref.store %scanned, %totals[%subgroup] : memref<8xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // The first subgroup scans the 8 totals, its lanes 8..31 adding zeros.
      // Every subgroup runs the shuffles, as all 32 lanes of a subgroup must.
      %first = arith.cmpi eq, %subgroup, %c0 : index
      %in_range = arith.cmpi ult, %lane, %c8 : index
      %holds = arith.andi %first, %in_range : i1
      %t = scf.if %holds -> i32 {
        %t = memref.load %totals[%lane] : memref<8xi32, #gpu.address_space<workgroup>>
        scf.yield %t : i32
      } else {
        scf.yield %zero : i32
      }
      %t_scanned = scf.for %step = %c0 to %c5 step %c1 iter_args(%s = %t) -> i32 {
        %step32 = arith.index_cast %step : index to i32
        %d = arith.shli %one, %step32 : i32
        %u, %ok = gpu.shuffle up %s, %d, %c32 : i32
        %add = arith.select %ok, %u, %zero : i32
        %next = arith.addi %s, %add : i32
        scf.yield %next : i32
      }
      gpu.barrier
      scf.if %holds {
        memref.store %t_scanned, %totals[%lane] : memref<8xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // Add the totals of the subgroups before this one.
      %later = arith.cmpi ugt, %subgroup, %c0 : index
      %result = scf.if %later -> i32 {
        %before = arith.subi %subgroup, %c1 : index
        %offset = memref.load %totals[%before] : memref<8xi32, #gpu.address_space<workgroup>>
        %r = arith.addi %scanned, %offset : i32
        scf.yield %r : i32
      } else {
        scf.yield %scanned : i32
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
