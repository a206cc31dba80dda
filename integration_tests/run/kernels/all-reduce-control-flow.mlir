// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s

// gpu.all_reduce in uniform control flow: in scf.if, in scf.for, nested,
// with and without `uniform`, with an operation name and with a region
// (one with several blocks too). All the threads of a block reach each one
// together, which is all a block-wide reduction asks. The blocks have 40
// threads, the last subgroup partial, laid out as 40 x 1 and as 8 x 5 (a
// block's threads are reduced by linear id either way).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // v = linear id + 1 + 100 * block id. Each thread writes its 5 results
    // to out[block][case][linear].
    gpu.func @reduce(%out: memref<2x5x40xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c100 = arith.constant 100 : index
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %dx = gpu.block_dim x
      %yx = arith.muli %y, %dx : index
      %linear = arith.addi %yx, %x : index
      %bid = gpu.block_id x
      %boff = arith.muli %bid, %c100 : index
      %v0 = arith.addi %linear, %boff : index
      %v1 = arith.addi %v0, %c1 : index
      %v = arith.index_cast %v1 : index to i32
      %zero = arith.constant 0 : i32

      // 0: one reduction or another in the branches of a uniform scf.if.
      %first = arith.cmpi eq, %bid, %c0 : index
      %r0 = scf.if %first -> i32 {
        %s = gpu.all_reduce add %v uniform {} : (i32) -> i32
        scf.yield %s : i32
      } else {
        %m = gpu.all_reduce maxsi %v {} : (i32) -> i32
        scf.yield %m : i32
      }

      // 1: in scf.for, through a region, without `uniform`: the sum of
      // i * v over i = 0, 1, 2.
      %r1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> i32 {
        %ii = arith.index_cast %i : index to i32
        %w = arith.muli %v, %ii : i32
        %s = gpu.all_reduce %w {
        ^bb0(%a: i32, %b: i32):
          %p = arith.addi %a, %b : i32
          gpu.yield %p : i32
        } : (i32) -> i32
        %next = arith.addi %acc, %s : i32
        scf.yield %next : i32
      }

      // 2: nested: for i in 0..2, if i == 1, for k in 0..2: the sum of the
      // minima of v + k.
      %r2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> i32 {
        %one = arith.cmpi eq, %i, %c1 : index
        %inner = scf.if %one -> i32 {
          %t = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %zero) -> i32 {
            %kk = arith.index_cast %k : index to i32
            %w = arith.addi %v, %kk : i32
            %m = gpu.all_reduce minsi %w uniform {} : (i32) -> i32
            %n = arith.addi %a, %m : i32
            scf.yield %n : i32
          }
          scf.yield %t : i32
        } else {
          scf.yield %zero : i32
        }
        %next = arith.addi %acc, %inner : i32
        scf.yield %next : i32
      }

      // 3: a region of several blocks (the larger of two) in scf.if, on a
      // condition every thread of the block shares without it being visible.
      %dy = gpu.block_dim y
      %small = arith.cmpi ult, %dy, %c100 : index
      %r3 = scf.if %small -> i32 {
        %m = gpu.all_reduce %v uniform {
        ^bb0(%a: i32, %b: i32):
          %gt = arith.cmpi sgt, %a, %b : i32
          cf.cond_br %gt, ^left, ^right
        ^left:
          gpu.yield %a : i32
        ^right:
          gpu.yield %b : i32
        } : (i32) -> i32
        scf.yield %m : i32
      } else {
        scf.yield %zero : i32
      }

      // 4: f32 in scf.for: the sum of v / 2, twice.
      %half = arith.constant 0.5 : f32
      %f = arith.sitofp %v : i32 to f32
      %h = arith.mulf %f, %half : f32
      %fzero = arith.constant 0.0 : f32
      %r4f = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %fzero) -> f32 {
        %s = gpu.all_reduce add %h {} : (f32) -> f32
        %next = arith.addf %acc, %s : f32
        scf.yield %next : f32
      }
      %r4 = arith.fptosi %r4f : f32 to i32

      memref.store %r0, %out[%bid, %c0, %linear] : memref<2x5x40xi32>
      memref.store %r1, %out[%bid, %c1, %linear] : memref<2x5x40xi32>
      memref.store %r2, %out[%bid, %c2, %linear] : memref<2x5x40xi32>
      memref.store %r3, %out[%bid, %c3, %linear] : memref<2x5x40xi32>
      memref.store %r4, %out[%bid, %c4, %linear] : memref<2x5x40xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  // Prints, for each block and case, thread 0's result and how many
  // threads got another one.
  func.func @summarize(%out: memref<2x5x40xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c40 = arith.constant 40 : index
    %h = memref.alloc() : memref<2x5x40xi32>
    gpu.memcpy %h, %out : memref<2x5x40xi32>, memref<2x5x40xi32>
    %summary = memref.alloc() : memref<2x5x2xi32>
    scf.for %b = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c5 step %c1 {
        %r = memref.load %h[%b, %j, %c0] : memref<2x5x40xi32>
        %zero = arith.constant 0 : i32
        %bad = scf.for %t = %c0 to %c40 step %c1 iter_args(%n = %zero) -> i32 {
          %x = memref.load %h[%b, %j, %t] : memref<2x5x40xi32>
          %differs = arith.cmpi ne, %x, %r : i32
          %d = arith.extui %differs : i1 to i32
          %m = arith.addi %n, %d : i32
          scf.yield %m : i32
        }
        memref.store %r, %summary[%b, %j, %c0] : memref<2x5x2xi32>
        memref.store %bad, %summary[%b, %j, %c1] : memref<2x5x2xi32>
      }
    }
    %u = memref.cast %summary : memref<2x5x2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %summary : memref<2x5x2xi32>
    memref.dealloc %h : memref<2x5x40xi32>
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c40 = arith.constant 40 : index
    %out = gpu.alloc () : memref<2x5x40xi32>

    // Block 0: v = 1..40, sum 820; block 1: v = 101..140, max 140.
    // CHECK:      {{\[}}[
    // CHECK-SAME:   [820,   0],
    // CHECK-NEXT:   [2460,   0],
    // CHECK-NEXT:   [3,   0],
    // CHECK-NEXT:   [40,   0],
    // CHECK-NEXT:   [820,   0]],
    // CHECK-NEXT:  {{\[}}[140,   0],
    // CHECK-NEXT:   [14460,   0],
    // CHECK-NEXT:   [203,   0],
    // CHECK-NEXT:   [140,   0],
    // CHECK-NEXT:   [4820,   0]]]
    gpu.launch_func @kernels::@reduce blocks in (%c2, %c1, %c1) threads in (%c40, %c1, %c1)
        args(%out : memref<2x5x40xi32>)
    call @summarize(%out) : (memref<2x5x40xi32>) -> ()

    // The same as 8 x 5 threads.
    // CHECK:      {{\[}}[
    // CHECK-SAME:   [820,   0],
    // CHECK-NEXT:   [2460,   0],
    // CHECK-NEXT:   [3,   0],
    // CHECK-NEXT:   [40,   0],
    // CHECK-NEXT:   [820,   0]],
    // CHECK-NEXT:  {{\[}}[140,   0],
    // CHECK-NEXT:   [14460,   0],
    // CHECK-NEXT:   [203,   0],
    // CHECK-NEXT:   [140,   0],
    // CHECK-NEXT:   [4820,   0]]]
    gpu.launch_func @kernels::@reduce blocks in (%c2, %c1, %c1) threads in (%c8, %c5, %c1)
        args(%out : memref<2x5x40xi32>)
    call @summarize(%out) : (memref<2x5x40xi32>) -> ()
    gpu.dealloc %out : memref<2x5x40xi32>
    return
  }
}
