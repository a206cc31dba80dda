// RUN: %gpu-runner %s -e partial_warp | FileCheck %s --check-prefix=PARTIAL
// RUN: %gpu-runner --no-barrier-splitting %s -e partial_warp | FileCheck %s --check-prefix=PARTIAL
// RUN: %gpu-runner %s -e exited_warp | FileCheck %s --check-prefix=WARP
// RUN: %gpu-runner --no-barrier-splitting %s -e exited_warp | FileCheck %s --check-prefix=WARP
// RUN: %gpu-runner %s -e loop_exits | FileCheck %s --check-prefix=LOOP
// RUN: %gpu-runner --no-barrier-splitting %s -e loop_exits | FileCheck %s --check-prefix=LOOP
// RUN: %gpu-runner %s -e tree_sum | FileCheck %s --check-prefix=TREE
// RUN: %gpu-runner --check-bounds %s -e tree_sum | FileCheck %s --check-prefix=TREE
// RUN: %gpu-runner --no-barrier-splitting %s -e tree_sum | FileCheck %s --check-prefix=TREE

// Threads that return before a barrier do not hold it up: since Volta,
// `bar.sync` (`__syncthreads()`) waits for the non-exited threads of the
// block only (PTX ISA, "barrier": "causes executing thread to wait for
// non-exited threads of all other warps participating in the barrier";
// "exit": "If the exiting threads are holding up the barrier, the barrier is
// released"; CUDA C++ Programming Guide, Compute Capability 7.x,
// Independent Thread Scheduling). So `if (tid >= n) return;` before the
// barriers of a kernel is the everyday bounds check, and it runs here too.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each block reverses its first %n elements through workgroup memory;
    // its threads at or above %n return first.
    gpu.func @reverse(%in: memref<?xi32>, %out: memref<?xi32>, %n: index)
        workgroup(%shared: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %outside = arith.cmpi uge, %tid, %n : index
      cf.cond_br %outside, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %shared[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %mirror = arith.subi %last, %tid : index
      %w = memref.load %shared[%mirror] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%i] : memref<?xi32>
      gpu.return
    }

    // Thread t takes part in rounds 0 to t - 1, then leaves the loop and
    // returns: in round i, the threads above i each count themselves into
    // workgroup memory, wait at the barrier, and add the round's count to
    // their sum. Thread t's sum is therefore the sum over i < t of
    // (block size - 1 - i), which it stores when it leaves.
    gpu.func @rounds(%out: memref<?xi32>)
        workgroup(%count: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      memref.store %zero, %count[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      cf.br ^loop(%c0, %zero : index, i32)
    ^loop(%round: index, %sum: i32):
      %done = arith.cmpi uge, %round, %tid : index
      cf.cond_br %done, ^exit, ^body
    ^exit:
      memref.store %sum, %out[%tid] : memref<?xi32>
      gpu.return
    ^body:
      %old = memref.atomic_rmw addi %one, %count[%round] : (i32, memref<64xi32, #gpu.address_space<workgroup>>) -> i32
      gpu.barrier
      %taking_part = memref.load %count[%round] : memref<64xi32, #gpu.address_space<workgroup>>
      %next_sum = arith.addi %sum, %taking_part : i32
      %next = arith.addi %round, %c1 : index
      cf.br ^loop(%next, %next_sum : index, i32)
    }

    // A tree reduction of the first %n elements of each block's part of %in
    // in workgroup memory; the threads at or above %n return first, and
    // each step adds only elements below %n.
    gpu.func @tree_sum(%in: memref<?xi32>, %out: memref<?xi32>, %n: index)
        workgroup(%partial: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %outside = arith.cmpi uge, %tid, %n : index
      cf.cond_br %outside, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %size = gpu.block_dim x
      %half0 = arith.divui %size, %c2 : index
      scf.while (%half = %half0) : (index) -> index {
        %more = arith.cmpi ugt, %half, %c0 : index
        scf.condition(%more) %half : index
      } do {
      ^bb0(%half: index):
        %j = arith.addi %tid, %half : index
        %low = arith.cmpi ult, %tid, %half : index
        %inside = arith.cmpi ult, %j, %n : index
        %active = arith.andi %low, %inside : i1
        scf.if %active {
          %a = memref.load %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
          %b = memref.load %partial[%j] : memref<256xi32, #gpu.address_space<workgroup>>
          %s = arith.addi %a, %b : i32
          memref.store %s, %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %next = arith.divui %half, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %bid = gpu.block_id x
        %sum = memref.load %partial[%c0] : memref<256xi32, #gpu.address_space<workgroup>>
        memref.store %sum, %out[%bid] : memref<?xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  // A device buffer of %n elements holding 0, 1, 2, ...
  func.func @iota(%n: index) -> memref<?xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = memref.alloc(%n) : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %h[%i] : memref<?xi32>
    }
    %d = gpu.alloc (%n) : memref<?xi32>
    gpu.memcpy %d, %h : memref<?xi32>, memref<?xi32>
    memref.dealloc %h : memref<?xi32>
    return %d : memref<?xi32>
  }

  // Copies %d (of %n elements) to the host, prints it and frees it.
  func.func @print(%d: memref<?xi32>, %n: index) {
    %h = memref.alloc(%n) : memref<?xi32>
    gpu.memcpy %h, %d : memref<?xi32>, memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<?xi32>
    gpu.dealloc %d : memref<?xi32>
    return
  }

  // One block of 40 threads: a full warp and a partial one of 8 lanes, of
  // which lanes 5 to 7 (threads 37 to 39) return.
  func.func @partial_warp() {
    %c1 = arith.constant 1 : index
    %c37 = arith.constant 37 : index
    %c40 = arith.constant 40 : index
    %minus_one = arith.constant -1 : i32
    %in = call @iota(%c40) : (index) -> memref<?xi32>
    %out = gpu.alloc (%c40) : memref<?xi32>
    gpu.memset %out, %minus_one : memref<?xi32>, i32
    gpu.launch_func @kernels::@reverse blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1)
        args(%in : memref<?xi32>, %out : memref<?xi32>, %c37 : index)
    // PARTIAL: [36,  35,  34,  33,  32,  31,  30,  29,  28,  27,  26,  25,  24,  23,  22,  21,  20,  19,  18,  17,  16,  15,  14,  13,  12,  11,  10,  9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  -1,  -1,  -1]
    call @print(%out, %c40) : (memref<?xi32>, index) -> ()
    gpu.dealloc %in : memref<?xi32>
    return
  }

  // Two blocks of 64 threads, whose second warp (threads 32 to 63) returns
  // as a whole.
  func.func @exited_warp() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %minus_one = arith.constant -1 : i32
    %in = call @iota(%c128) : (index) -> memref<?xi32>
    %out = gpu.alloc (%c128) : memref<?xi32>
    gpu.memset %out, %minus_one : memref<?xi32>, i32
    gpu.launch_func @kernels::@reverse blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<?xi32>, %out : memref<?xi32>, %c32 : index)
    // WARP: [31,  30,  29,  28,  27,  26,  25,  24,  23,  22,  21,  20,  19,  18,  17,  16,  15,  14,  13,  12,  11,  10,  9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  95,  94,  93,  92,  91,  90,  89,  88,  87,  86,  85,  84,  83,  82,  81,  80,  79,  78,  77,  76,  75,  74,  73,  72,  71,  70,  69,  68,  67,  66,  65,  64,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
    call @print(%out, %c128) : (memref<?xi32>, index) -> ()
    gpu.dealloc %in : memref<?xi32>
    return
  }

  // One block of 40 threads, each leaving the loop at its own round.
  func.func @loop_exits() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %out = gpu.alloc (%c40) : memref<?xi32>
    gpu.launch_func @kernels::@rounds blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1)
        args(%out : memref<?xi32>)
    // LOOP: [0,  39,  77,  114,  150,  185,  219,  252,  284,  315,  345,  374,  402,  429,  455,  480,  504,  527,  549,  570,  590,  609,  627,  644,  660,  675,  689,  702,  714,  725,  735,  744,  752,  759,  765,  770,  774,  777,  779,  780]
    call @print(%out, %c40) : (memref<?xi32>, index) -> ()
    return
  }

  // Two blocks of 256 threads, each summing its first 200 elements: 0 + ...
  // + 199, and 256 + ... + 455.
  func.func @tree_sum() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c200 = arith.constant 200 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %in = call @iota(%c512) : (index) -> memref<?xi32>
    %out = gpu.alloc (%c2) : memref<?xi32>
    gpu.launch_func @kernels::@tree_sum blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%in : memref<?xi32>, %out : memref<?xi32>, %c200 : index)
    // TREE: [19900,  71100]
    call @print(%out, %c2) : (memref<?xi32>, index) -> ()
    gpu.dealloc %in : memref<?xi32>
    return
  }
}
