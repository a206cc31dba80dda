// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}

// Subgroup ops in blocks whose size is not a multiple of the subgroup size
// (32; 64 on HIP's gfx9, where blocks of 40 and 42 threads are one partial
// subgroup, the lines of the other prefix): the last subgroup of such a
// block is partial. A GPU runs it as a
// partial warp whose lanes past the block's threads do not exist; lanes are
// numbered by the thread's linear id (x fastest), in 2-D and 3-D blocks too.
// gpu.subgroup_reduce reduces over the lanes that exist (the cluster's,
// with clusters), and gpu.shuffle reads no lane that does not exist: its
// `valid` is false for one, and the lane keeps its own value.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // v = linear id + 1; out[linear] = subgroup_reduce add v.
    gpu.func @reduce(%out: memref<?xi32>) kernel {
      %linear, %v = func.call @value() : () -> (index, i32)
      %sum = gpu.subgroup_reduce add %v : (i32) -> i32
      memref.store %sum, %out[%linear] : memref<?xi32>
      gpu.return
    }

    // Clusters of 4 lanes, contiguous and 2 apart; max and f32 add; a
    // vector of two i16, packed into one shuffle. Each thread writes 5
    // values.
    gpu.func @clusters(%out: memref<?xi32>) kernel {
      %linear, %v = func.call @value() : () -> (index, i32)
      %c5 = arith.constant 5 : index
      %base = arith.muli %linear, %c5 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %a = gpu.subgroup_reduce add %v cluster(size = 4) : (i32) -> i32
      %b = gpu.subgroup_reduce add %v cluster(size = 4, stride = 2) : (i32) -> i32
      %c = gpu.subgroup_reduce maxsi %v : (i32) -> i32
      %f = arith.sitofp %v : i32 to f32
      %fs = gpu.subgroup_reduce add %f uniform : (f32) -> f32
      %fi = arith.fptosi %fs : f32 to i32
      %v16 = arith.trunci %v : i32 to i16
      %c10 = arith.constant 10 : i16
      %w16 = arith.muli %v16, %c10 : i16
      %pair = vector.from_elements %v16, %w16 : vector<2xi16>
      %pairSum = gpu.subgroup_reduce add %pair : (vector<2xi16>) -> vector<2xi16>
      %second = vector.extract %pairSum[1] : i16 from vector<2xi16>
      %secondI = arith.extsi %second : i16 to i32
      %i0 = arith.addi %base, %c1 : index
      %i1 = arith.addi %base, %c2 : index
      %i2 = arith.addi %base, %c3 : index
      %i3 = arith.addi %base, %c4 : index
      memref.store %a, %out[%base] : memref<?xi32>
      memref.store %b, %out[%i0] : memref<?xi32>
      memref.store %c, %out[%i1] : memref<?xi32>
      memref.store %fi, %out[%i2] : memref<?xi32>
      memref.store %secondI, %out[%i3] : memref<?xi32>
      gpu.return
    }

    // out[linear] = the value of lane (lane ^ offset) where that lane
    // exists, else -v.
    gpu.func @shuffle(%offset: i32, %out: memref<?xi32>) kernel {
      %linear, %v = func.call @value() : () -> (index, i32)
      %width = arith.constant 32 : i32
      %s, %valid = gpu.shuffle xor %v, %offset, %width : i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %r = arith.select %valid, %s, %neg : i32
      memref.store %r, %out[%linear] : memref<?xi32>
      gpu.return
    }

    func.func @value() -> (index, i32) {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %z = gpu.thread_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %zy = arith.muli %z, %dy : index
      %row = arith.addi %zy, %y : index
      %rowx = arith.muli %row, %dx : index
      %linear = arith.addi %rowx, %x : index
      %c1 = arith.constant 1 : index
      %v1 = arith.addi %linear, %c1 : index
      %v = arith.index_cast %v1 : index to i32
      return %linear, %v : index, i32
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @reduce(%x: index, %y: index, %z: index) {
    %c1 = arith.constant 1 : index
    %xy = arith.muli %x, %y : index
    %n = arith.muli %xy, %z : index
    %out = gpu.alloc (%n) : memref<?xi32>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%x, %y, %z)
        args(%out : memref<?xi32>)
    call @print(%out, %n) : (memref<?xi32>, index) -> ()
    return
  }

  func.func @print(%out: memref<?xi32>, %n: index) {
    %h = memref.alloc(%n) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }

  func.func @shuffle(%offset: i32, %n: index) {
    %c1 = arith.constant 1 : index
    %out = gpu.alloc (%n) : memref<?xi32>
    gpu.launch_func @kernels::@shuffle blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%offset : i32, %out : memref<?xi32>)
    call @print(%out, %n) : (memref<?xi32>, index) -> ()
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c40 = arith.constant 40 : index

    // One partial subgroup of 4 lanes: 1 + 2 + 3 + 4.
    // CHECK: [10,  10,  10,  10]
    call @reduce(%c4, %c1, %c1) : (index, index, index) -> ()
    // 40 threads: 1 + ... + 32, then 33 + ... + 40 in the partial one; with
    // subgroups of 64, 1 + ... + 40.
    // SUBGROUP32: [528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  292,  292,  292,  292,  292,  292,  292,  292]
    // SUBGROUP64: [820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820]
    call @reduce(%c40, %c1, %c1) : (index, index, index) -> ()
    // The same 40 threads as 8 x 5, and 42 as 2 x 3 x 7 (33 + ... + 42, or
    // 1 + ... + 42).
    // SUBGROUP32: [528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  292,  292,  292,  292,  292,  292,  292,  292]
    // SUBGROUP64: [820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820,  820]
    call @reduce(%c8, %c5, %c1) : (index, index, index) -> ()
    // SUBGROUP32: [528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  528,  375,  375,  375,  375,  375,  375,  375,  375,  375,  375]
    // SUBGROUP64: [903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903,  903]
    call @reduce(%c2, %c3, %c7) : (index, index, index) -> ()

    // 6 lanes, per thread: add over clusters {0-3} {4,5}; add over clusters
    // {0,2,4} {1,3,5}; max; f32 add; the second i16 of (v, 10 v) summed.
    // CHECK: [10,  9,  6,  21,  210,  10,  12,  6,  21,  210,  10,  9,  6,  21,  210,  10,  12,  6,  21,  210,  11,  9,  6,  21,  210,  11,  12,  6,  21,  210]
    %c30 = arith.constant 30 : index
    %cl = gpu.alloc (%c30) : memref<?xi32>
    gpu.launch_func @kernels::@clusters blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1)
        args(%cl : memref<?xi32>)
    call @print(%cl, %c30) : (memref<?xi32>, index) -> ()

    // xor 16 in a block of 4: lanes 16 to 19 do not exist.
    // CHECK: [-1,  -2,  -3,  -4]
    %o16 = arith.constant 16 : i32
    call @shuffle(%o16, %c4) : (i32, index) -> ()
    // xor 2 in a block of 4: every source exists.
    // CHECK: [3,  4,  1,  2]
    %o2 = arith.constant 2 : i32
    call @shuffle(%o2, %c4) : (i32, index) -> ()
    // xor 8 in a block of 40: the full subgroup trades, the partial one's
    // sources (lanes 8 to 15) do not exist.
    // CHECK: [9,  10,  11,  12,  13,  14,  15,  16,  1,  2,  3,  4,  5,  6,  7,  8,  25,  26,  27,  28,  29,  30,  31,  32,  17,  18,  19,  20,  21,  22,  23,  24,  -33,  -34,  -35,  -36,  -37,  -38,  -39,  -40]
    %o8 = arith.constant 8 : i32
    call @shuffle(%o8, %c40) : (i32, index) -> ()
    return
  }
}
