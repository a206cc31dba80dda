// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// HIP has no thread block clusters.
// UNSUPPORTED: hip, hip-standin

// Thread block clusters: the ids and sizes each block reads, as CUDA's
// special registers give them (upstream's NVVM lowering reads gpu.cluster_id
// from %clusterid, gpu.cluster_dim from %nclusterid, gpu.cluster_dim_blocks
// from %cluster_nctaid and gpu.cluster_block_id from %cluster_ctaid). The
// grid is counted in blocks and divided into clusters along each dimension;
// a launch without clusters is one of 1 x 1 x 1 blocks (PTX ISA, special
// registers: a kernel not launched with clusters runs as if each block were
// a cluster of its own). The values cross a gpu.barrier, so they hold both
// in loops cut at the barrier and on fibers (--no-barrier-splitting).

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // Thread t of block b writes, for x:
    //   1000 * cluster_id + 100 * cluster_dim + 10 * cluster_dim_blocks
    //   + cluster_block_id
    gpu.func @ids_x(%out: memref<?xi32>) kernel {
      %cid = gpu.cluster_id x
      %cdim = gpu.cluster_dim x
      %cblocks = gpu.cluster_dim_blocks x
      %cbid = gpu.cluster_block_id x
      %code = affine.apply affine_map<(a, b, c, d) -> (a * 1000 + b * 100 + c * 10 + d)>(%cid, %cdim, %cblocks, %cbid)
      %code32 = arith.index_cast %code : index to i32
      gpu.barrier
      %i = gpu.global_id x
      memref.store %code32, %out[%i] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %h = memref.alloc() : memref<16xi32>
    %u = memref.cast %h : memref<16xi32> to memref<*xi32>

    // 1-D: a grid of 8 blocks of 2 threads, in clusters of 4 blocks.
    %out = gpu.alloc (%c16) : memref<?xi32>
    gpu.launch_func @kernels::@ids_x clusters in (%c4, %c1, %c1) blocks in (%c8, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<?xi32>)
    gpu.memcpy %h, %out : memref<16xi32>, memref<?xi32>
    // CHECK: [240,  240,  241,  241,  242,  242,  243,  243,  1240,  1240,  1241,  1241,  1242,  1242,  1243,  1243]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // The same, asynchronous, in clusters of 2 blocks.
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@ids_x clusters in (%c2, %c1, %c1) blocks in (%c8, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<?xi32>)
    %t2 = gpu.memcpy async [%t1] %h, %out : memref<16xi32>, memref<?xi32>
    gpu.wait [%t2]
    // CHECK: [420,  420,  421,  421,  1420,  1420,  1421,  1421,  2420,  2420,  2421,  2421,  3420,  3420,  3421,  3421]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // Without clusters: each block is a cluster of 1 block.
    gpu.launch_func @kernels::@ids_x blocks in (%c8, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<?xi32>)
    gpu.memcpy %h, %out : memref<16xi32>, memref<?xi32>
    // CHECK: [810,  810,  1810,  1810,  2810,  2810,  3810,  3810,  4810,  4810,  5810,  5810,  6810,  6810,  7810,  7810]
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<?xi32>

    // 3-D, inline: a grid of 4 x 2 x 4 blocks in clusters of 2 x 2 x 2 (8
    // blocks, the most), so 2 x 1 x 2 clusters. Block (x, y, z) writes
    //   100000 * cluster_id x + 10000 * y + 1000 * z
    //   + 100 * cluster_block_id x + 10 * y + z
    // and the sizes, the same in every block:
    //   100000 * cluster_dim x + 10000 * y + 1000 * z
    //   + 100 * cluster_dim_blocks x + 10 * y + z
    %ids = gpu.alloc () : memref<4x2x4xi32>
    %dims = gpu.alloc () : memref<4x2x4xi32>
    %t3 = gpu.wait async
    %t4 = gpu.launch async [%t3]
               clusters(%cx, %cy, %cz) in (%scx = %c2, %scy = %c2, %scz = %c2)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c2, %gz = %c4)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %bidx = gpu.cluster_block_id x
      %bidy = gpu.cluster_block_id y
      %bidz = gpu.cluster_block_id z
      // The region's cluster ids are gpu.cluster_id's.
      %id = affine.apply affine_map<(a, b, c, d, e, f) -> (a * 100000 + b * 10000 + c * 1000 + d * 100 + e * 10 + f)>(%cx, %cy, %cz, %bidx, %bidy, %bidz)
      %id32 = arith.index_cast %id : index to i32
      memref.store %id32, %ids[%bz, %by, %bx] : memref<4x2x4xi32>
      %dx = gpu.cluster_dim x
      %dy = gpu.cluster_dim y
      %dz = gpu.cluster_dim z
      %nx = gpu.cluster_dim_blocks x
      %ny = gpu.cluster_dim_blocks y
      %nz = gpu.cluster_dim_blocks z
      %dim = affine.apply affine_map<(a, b, c, d, e, f) -> (a * 100000 + b * 10000 + c * 1000 + d * 100 + e * 10 + f)>(%dx, %dy, %dz, %nx, %ny, %nz)
      %dim32 = arith.index_cast %dim : index to i32
      memref.store %dim32, %dims[%bz, %by, %bx] : memref<4x2x4xi32>
      gpu.terminator
    }
    gpu.wait [%t4]
    %h3 = memref.alloc() : memref<4x2x4xi32>
    %u3 = memref.cast %h3 : memref<4x2x4xi32> to memref<*xi32>
    gpu.memcpy %h3, %ids : memref<4x2x4xi32>, memref<4x2x4xi32>
    // CHECK:      {{\[}}{{\[}}[0,   100,   100000,   100100],
    // CHECK-NEXT:   [10,   110,   100010,   100110]],
    // CHECK-NEXT:  {{\[}}[1,   101,   100001,   100101],
    // CHECK-NEXT:   [11,   111,   100011,   100111]],
    // CHECK-NEXT:  {{\[}}[1000,   1100,   101000,   101100],
    // CHECK-NEXT:   [1010,   1110,   101010,   101110]],
    // CHECK-NEXT:  {{\[}}[1001,   1101,   101001,   101101],
    // CHECK-NEXT:   [1011,   1111,   101011,   101111]]]
    call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
    gpu.memcpy %h3, %dims : memref<4x2x4xi32>, memref<4x2x4xi32>
    // CHECK:      {{\[}}{{\[}}[212222,   212222,   212222,   212222],
    // CHECK-NEXT:   [212222,   212222,   212222,   212222]],
    // CHECK-COUNT-3: [212222,   212222,   212222,   212222]]
    call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
    gpu.dealloc %ids : memref<4x2x4xi32>
    gpu.dealloc %dims : memref<4x2x4xi32>
    memref.dealloc %h3 : memref<4x2x4xi32>
    memref.dealloc %h : memref<16xi32>
    return
  }
}
