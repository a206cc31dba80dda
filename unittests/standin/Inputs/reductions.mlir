// Block reductions and a narrow shuffle as MLIR's NVVM lowering emits them:
// gpu.all_reduce becomes shuffles (with member masks of the warps that
// take part) and shared memory between barriers.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[b] is the sum of block b's elements of in; maxima[b] their
    // maximum, as integers.
    gpu.func @reduce(%in: memref<?xf32>, %out: memref<?xf32>, %maxima: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      %sum = gpu.all_reduce add %x uniform {} : (f32) -> f32
      %xi = arith.fptosi %x : f32 to i32
      %max = gpu.all_reduce maxsi %xi uniform {} : (i32) -> i32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<?xf32>
        memref.store %max, %maxima[%bid] : memref<?xi32>
      }
      gpu.return
    }
    // gpu.shuffle up by 1 with width 8: out[t] the value, valid[t] whether
    // it came from another lane.
    gpu.func @up8(%out: memref<?xi32>, %valid: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %t32 = arith.index_cast %tid : index to i32
      %c1 = arith.constant 1 : i32
      %c8 = arith.constant 8 : i32
      %v, %p = gpu.shuffle up %t32, %c1, %c8 : i32
      memref.store %v, %out[%tid] : memref<?xi32>
      %p32 = arith.extui %p : i1 to i32
      memref.store %p32, %valid[%tid] : memref<?xi32>
      gpu.return
    }
  }
}
