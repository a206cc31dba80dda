// RUN: %gpu-runner %s | FileCheck %s

// gpu.all_reduce over blocks of 128 threads (4 subgroups): add and max with
// the built-in operations, a sum through a region, and
// gpu.subgroup_reduce with every built-in operation.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<256xi32>, %out: memref<2x3xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %i = gpu.global_id x
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %v = memref.load %in[%i] : memref<256xi32>
      %sum = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      %max = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
      // The sum of (v mod 3) over the block, through a region.
      %c3i = arith.constant 3 : i32
      %m = arith.remsi %v, %c3i : i32
      %regionSum = gpu.all_reduce %m uniform {
      ^bb0(%a: i32, %b: i32):
        %p = arith.addi %a, %b : i32
        gpu.yield %p : i32
      } : (i32) -> (i32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid, %c0] : memref<2x3xi32>
        memref.store %max, %out[%bid, %c1] : memref<2x3xi32>
        memref.store %regionSum, %out[%bid, %c2] : memref<2x3xi32>
      }
      gpu.return
    }

    gpu.func @subgroup(%in: memref<32xi32>, %out: memref<10xi32>) kernel {
      %lane = gpu.lane_id
      %v = memref.load %in[%lane] : memref<32xi32>
      %add = gpu.subgroup_reduce add %v : (i32) -> i32
      %mul = gpu.subgroup_reduce mul %v : (i32) -> i32
      %minsi = gpu.subgroup_reduce minsi %v : (i32) -> i32
      %minui = gpu.subgroup_reduce minui %v : (i32) -> i32
      %maxsi = gpu.subgroup_reduce maxsi %v : (i32) -> i32
      %maxui = gpu.subgroup_reduce maxui %v : (i32) -> i32
      %and = gpu.subgroup_reduce and %v : (i32) -> i32
      %or = gpu.subgroup_reduce or %v : (i32) -> i32
      %xor = gpu.subgroup_reduce xor %v : (i32) -> i32
      %f = arith.sitofp %v : i32 to f32
      %fmax = gpu.subgroup_reduce maxnumf %f : (f32) -> f32
      %fmaxi = arith.fptosi %fmax : f32 to i32
      %c0 = arith.constant 0 : index
      %c31 = arith.constant 31 : index
      %last = arith.cmpi eq, %lane, %c31 : index
      scf.if %last {
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %c4 = arith.constant 4 : index
        %c5 = arith.constant 5 : index
        %c6 = arith.constant 6 : index
        %c7 = arith.constant 7 : index
        %c8 = arith.constant 8 : index
        %c9 = arith.constant 9 : index
        memref.store %add, %out[%c0] : memref<10xi32>
        memref.store %mul, %out[%c1] : memref<10xi32>
        memref.store %minsi, %out[%c2] : memref<10xi32>
        memref.store %minui, %out[%c3] : memref<10xi32>
        memref.store %maxsi, %out[%c4] : memref<10xi32>
        memref.store %maxui, %out[%c5] : memref<10xi32>
        memref.store %and, %out[%c6] : memref<10xi32>
        memref.store %or, %out[%c7] : memref<10xi32>
        memref.store %xor, %out[%c8] : memref<10xi32>
        memref.store %fmaxi, %out[%c9] : memref<10xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    // in[i] = (i * 37) mod 256
    %h = memref.alloc() : memref<256xi32>
    scf.for %i = %c0 to %c256 step %c1 {
      %k = affine.apply affine_map<(i) -> ((i * 37) mod 256)>(%i)
      %v = arith.index_cast %k : index to i32
      memref.store %v, %h[%i] : memref<256xi32>
    }
    %in = gpu.alloc () : memref<256xi32>
    gpu.memcpy %in, %h : memref<256xi32>, memref<256xi32>
    %out = gpu.alloc () : memref<2x3xi32>
    gpu.launch_func @kernels::@reduce blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%in : memref<256xi32>, %out : memref<2x3xi32>)
    %ho = memref.alloc() : memref<2x3xi32>
    gpu.memcpy %ho, %out : memref<2x3xi32>, memref<2x3xi32>
    // CHECK:      {{\[}}[15808,   255,   121],
    // CHECK-NEXT:  [16832,   254,   134]]
    %u = memref.cast %ho : memref<2x3xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // Subgroup: the values 1, -2, 3, -4, ... alternating signs.
    %hs = memref.alloc() : memref<32xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      %k = arith.index_cast %i : index to i32
      %one = arith.constant 1 : i32
      %k1 = arith.addi %k, %one : i32
      %two = arith.constant 2 : i32
      %odd = arith.remui %k, %two : i32
      %isOdd = arith.cmpi ne, %odd, %one : i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %k1 : i32
      %v = arith.select %isOdd, %k1, %neg : i32
      memref.store %v, %hs[%i] : memref<32xi32>
    }
    %sin = gpu.alloc () : memref<32xi32>
    gpu.memcpy %sin, %hs : memref<32xi32>, memref<32xi32>
    %sout = gpu.alloc () : memref<10xi32>
    gpu.launch_func @kernels::@subgroup blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%sin : memref<32xi32>, %sout : memref<10xi32>)
    %hso = memref.alloc() : memref<10xi32>
    gpu.memcpy %hso, %sout : memref<10xi32>, memref<10xi32>
    // CHECK: [-16,  -2147483648,  -32,  1,  31,  -2,  0,  -1,  0,  31]
    %us = memref.cast %hso : memref<10xi32> to memref<*xi32>
    call @printMemrefI32(%us) : (memref<*xi32>) -> ()
    return
  }
}
