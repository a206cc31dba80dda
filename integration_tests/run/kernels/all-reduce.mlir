// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// gpu.all_reduce over blocks of 128 threads (4 subgroups): add and max over
// two blocks, a sum through a region, every built-in operation; and
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

    // Every built-in operation of gpu.all_reduce, over one block of 128.
    gpu.func @every_op(%in: memref<256xi32>, %out: memref<13xi32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %in[%tid] : memref<256xi32>
      %c100 = arith.constant 100 : i32
      %s = arith.subi %v, %c100 : i32
      // 3 on even threads, 1 on odd ones: the product is 3^64 mod 2^32.
      %c2 = arith.constant 2 : index
      %parity = arith.remui %tid, %c2 : index
      %c0 = arith.constant 0 : index
      %even = arith.cmpi eq, %parity, %c0 : index
      %three = arith.constant 3 : i32
      %one = arith.constant 1 : i32
      %factor = arith.select %even, %three, %one : i32
      %half = arith.constant 0.5 : f32
      %sf = arith.sitofp %s : i32 to f32
      %f = arith.mulf %sf, %half : f32
      %add = gpu.all_reduce add %s uniform {} : (i32) -> (i32)
      %mul = gpu.all_reduce mul %factor uniform {} : (i32) -> (i32)
      %minsi = gpu.all_reduce minsi %s uniform {} : (i32) -> (i32)
      %minui = gpu.all_reduce minui %s uniform {} : (i32) -> (i32)
      %maxsi = gpu.all_reduce maxsi %s uniform {} : (i32) -> (i32)
      %maxui = gpu.all_reduce maxui %s uniform {} : (i32) -> (i32)
      %and = gpu.all_reduce and %s uniform {} : (i32) -> (i32)
      %or = gpu.all_reduce or %s uniform {} : (i32) -> (i32)
      %xor = gpu.all_reduce xor %s uniform {} : (i32) -> (i32)
      %minnumf = gpu.all_reduce minnumf %f uniform {} : (f32) -> (f32)
      %maxnumf = gpu.all_reduce maxnumf %f uniform {} : (f32) -> (f32)
      %minimumf = gpu.all_reduce minimumf %f uniform {} : (f32) -> (f32)
      %maximumf = gpu.all_reduce maximumf %f uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %two = arith.constant 2.0 : f32
        %results = vector.from_elements %add, %mul, %minsi, %minui, %maxsi, %maxui, %and, %or, %xor : vector<9xi32>
        vector.store %results, %out[%c0] : memref<13xi32>, vector<9xi32>
        %floats = vector.from_elements %minnumf, %maxnumf, %minimumf, %maximumf : vector<4xf32>
        %twice = vector.broadcast %two : f32 to vector<4xf32>
        %doubled = arith.mulf %floats, %twice : vector<4xf32>
        %asInt = arith.fptosi %doubled : vector<4xf32> to vector<4xi32>
        %c9 = arith.constant 9 : index
        vector.store %asInt, %out[%c9] : memref<13xi32>, vector<4xi32>
      }
      gpu.return
    }

    gpu.func @subgroup(%in: memref<32xi32>, %out: memref<13xi32>) kernel {
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
      %fmin = gpu.subgroup_reduce minnumf %f : (f32) -> f32
      %fmini = arith.fptosi %fmin : f32 to i32
      %fminimum = gpu.subgroup_reduce minimumf %f : (f32) -> f32
      %fminimumi = arith.fptosi %fminimum : f32 to i32
      %fmaximum = gpu.subgroup_reduce maximumf %f : (f32) -> f32
      %fmaximumi = arith.fptosi %fmaximum : f32 to i32
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
        memref.store %add, %out[%c0] : memref<13xi32>
        memref.store %mul, %out[%c1] : memref<13xi32>
        memref.store %minsi, %out[%c2] : memref<13xi32>
        memref.store %minui, %out[%c3] : memref<13xi32>
        memref.store %maxsi, %out[%c4] : memref<13xi32>
        memref.store %maxui, %out[%c5] : memref<13xi32>
        memref.store %and, %out[%c6] : memref<13xi32>
        memref.store %or, %out[%c7] : memref<13xi32>
        memref.store %xor, %out[%c8] : memref<13xi32>
        memref.store %fmaxi, %out[%c9] : memref<13xi32>
        %c10 = arith.constant 10 : index
        %c11 = arith.constant 11 : index
        %c12 = arith.constant 12 : index
        memref.store %fmini, %out[%c10] : memref<13xi32>
        memref.store %fminimumi, %out[%c11] : memref<13xi32>
        memref.store %fmaximumi, %out[%c12] : memref<13xi32>
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

    // Every operation, on in[i] - 100 (and half of it for the floats,
    // printed doubled).
    %all = gpu.alloc () : memref<13xi32>
    gpu.launch_func @kernels::@every_op blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%in : memref<256xi32>, %all : memref<13xi32>)
    %hall = memref.alloc() : memref<13xi32>
    gpu.memcpy %hall, %all : memref<13xi32>, memref<13xi32>
    // CHECK: [3008,  2038349057,  -100,  1,  155,  -2,  0,  -1,  -256,  -100,  155,  -100,  155]
    %uall = memref.cast %hall : memref<13xi32> to memref<*xi32>
    call @printMemrefI32(%uall) : (memref<*xi32>) -> ()

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
    %sout = gpu.alloc () : memref<13xi32>
    gpu.launch_func @kernels::@subgroup blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%sin : memref<32xi32>, %sout : memref<13xi32>)
    %hso = memref.alloc() : memref<13xi32>
    gpu.memcpy %hso, %sout : memref<13xi32>, memref<13xi32>
    // CHECK: [-16,  -2147483648,  -32,  1,  31,  -2,  0,  -1,  0,  31,  -32,  -32,  31]
    %us = memref.cast %hso : memref<13xi32> to memref<*xi32>
    call @printMemrefI32(%us) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<256xi32>
    gpu.dealloc %out : memref<2x3xi32>
    gpu.dealloc %all : memref<13xi32>
    gpu.dealloc %sin : memref<32xi32>
    gpu.dealloc %sout : memref<13xi32>
    return
  }
}
