// Cross-lane operations on the HIP stand-in, in the waves of 64 lanes of a
// gfx9 chip (AMDGPUUsage, "Processors"). gpu.shuffle becomes ds_bpermute
// (gpu-runner-shuffle-to-rocdl, then upstream's ROCDL lowering),
// gpu.subgroup_reduce and gpu.all_reduce become shuffles, and
// gpu.subgroup_broadcast becomes v_readlane and v_readfirstlane; the stand-in
// runs each among the lanes of the wave that execute it together.
//
// - Shuffles of every mode in a block of 32 threads, one partial wave,
//   whose results are the host backend's (its subgroups have 32 lanes): a
//   lane whose source is outside [0, width) keeps -v, not valid, the up
//   shuffle's lanes below the offset among them (upstream's ROCDL lowering
//   calls them valid and reads lane (k - offset) mod 64), and a width of 20,
//   not a power of two.
// - A butterfly sum with the subgroup's size as width: 64 lanes on the HIP
//   stand-in, 32 on the host.
// - Reductions in a block of 100 threads, a wave and a partial one of 36
//   lanes: max over negative values and min over positive ones, which a
//   lane past the block's threads read as 0 would change; the sum of each
//   wave (subgroup).
// - Broadcasts: of lane 5 to the whole wave, and of the first active lane
//   among lanes 10 and up.
// - A shuffle, and a broadcast, that read a lane that has exited: an error
//   at the launch.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %gpu-runner-hip-standin --no-cache %s | FileCheck %s --check-prefixes=CHECK,HIP
// RUN: %gpu-runner-host %s | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: %expect-exit-1 %gpu-runner-hip-standin --no-cache -e exitedLane %s 2>&1 | FileCheck %s --check-prefix=EXITED --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner-hip-standin --no-cache -e exitedBroadcast %s 2>&1 | FileCheck %s --check-prefix=READLANE --implicit-check-not=error:

// EXITED: lane 0 (thread (0, 0, 0)) of kernel 'exited', block (0, 0, 0) reads lane 32 with ds_bpermute at llvm.amdgcn.ds.bpermute in 'exited', which has exited: the value it reads is undefined
// EXITED: hip-wave-ops.mlir:[[# @LINE + 219]]:5: error: gpu.launch_func: kernel 'exited' failed: hipErrorLaunchFailure
// READLANE: lane 0 (thread (0, 0, 0)) of kernel 'exitedRead', block (0, 0, 0) reads lane 40 with v_readlane at llvm.amdgcn.readlane{{.*}} in 'exitedRead', which has exited: the value it reads is undefined
// READLANE: hip-wave-ops.mlir:[[# @LINE + 225]]:5: error: gpu.launch_func: kernel 'exitedRead' failed: hipErrorLaunchFailure

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // out[mode][k] = the shuffle's value where valid, else -v; v = 100 + k.
    gpu.func @shuffles(%out: memref<5x32xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c100 = arith.constant 100 : i32
      %v = arith.addi %ti, %c100 : i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %c7 = arith.constant 7 : i32
      %c16 = arith.constant 16 : i32
      %c20 = arith.constant 20 : i32
      %c32 = arith.constant 32 : i32
      %m0 = arith.constant 0 : index
      %m1 = arith.constant 1 : index
      %m2 = arith.constant 2 : index
      %m3 = arith.constant 3 : index
      %m4 = arith.constant 4 : index
      %x, %xok = gpu.shuffle xor %v, %c5, %c32 : i32
      %xs = arith.select %xok, %x, %neg : i32
      memref.store %xs, %out[%m0, %t] : memref<5x32xi32>
      %u, %uok = gpu.shuffle up %v, %c3, %c16 : i32
      %us = arith.select %uok, %u, %neg : i32
      memref.store %us, %out[%m1, %t] : memref<5x32xi32>
      %d, %dok = gpu.shuffle down %v, %c3, %c16 : i32
      %ds = arith.select %dok, %d, %neg : i32
      memref.store %ds, %out[%m2, %t] : memref<5x32xi32>
      %i, %iok = gpu.shuffle idx %v, %c7, %c20 : i32
      %is = arith.select %iok, %i, %neg : i32
      memref.store %is, %out[%m3, %t] : memref<5x32xi32>
      %e, %eok = gpu.shuffle down %v, %c2, %c20 : i32
      %es = arith.select %eok, %e, %neg : i32
      memref.store %es, %out[%m4, %t] : memref<5x32xi32>
      gpu.return
    }

    // out[k] = the sum of the lanes' ids over the subgroup, by a butterfly
    // whose steps past the subgroup's size are not valid.
    gpu.func @butterfly(%out: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %size = gpu.subgroup_size : index
      %width = arith.index_cast %size : index to i32
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %steps = arith.constant 6 : i32
      %sum = scf.for %step = %zero to %steps step %one
          iter_args(%acc = %ti) -> (i32) : i32 {
        %offset = arith.shli %one, %step : i32
        %s, %ok = gpu.shuffle xor %acc, %offset, %width : i32
        %add = arith.select %ok, %s, %zero : i32
        %next = arith.addi %acc, %add : i32
        scf.yield %next : i32
      }
      memref.store %sum, %out[%t] : memref<64xi32>
      gpu.return
    }

    // out = [max, min, the subgroup sum of lane 0, of lane 64, size].
    gpu.func @reduce(%out: memref<5xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c1 = arith.constant 1 : i32
      %v = arith.addi %ti, %c1 : i32
      %zero = arith.constant 0 : i32
      %negative = arith.subi %zero, %v : i32
      %max = gpu.all_reduce maxsi %negative uniform {} : (i32) -> i32
      %min = gpu.all_reduce minsi %v uniform {} : (i32) -> i32
      %sum = gpu.subgroup_reduce add %v : (i32) -> i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      %i4 = arith.constant 4 : index
      %i64 = arith.constant 64 : index
      %first = arith.cmpi eq, %t, %i0 : index
      scf.if %first {
        memref.store %max, %out[%i0] : memref<5xi32>
        memref.store %min, %out[%i1] : memref<5xi32>
        memref.store %sum, %out[%i2] : memref<5xi32>
        %size = gpu.subgroup_size : index
        %sizei = arith.index_cast %size : index to i32
        memref.store %sizei, %out[%i4] : memref<5xi32>
      }
      %second = arith.cmpi eq, %t, %i64 : index
      scf.if %second {
        memref.store %sum, %out[%i3] : memref<5xi32>
      }
      gpu.return
    }

    // out[0][k] = lane 5's v; out[1][k] = the first active lane's v among
    // lanes 10 and up, -1 below; v = 1000 + k.
    gpu.func @broadcast(%out: memref<2x64xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c1000 = arith.constant 1000 : i32
      %v = arith.addi %ti, %c1000 : i32
      %c5 = arith.constant 5 : i32
      %b = gpu.subgroup_broadcast %v, specific_lane %c5 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i10 = arith.constant 10 : index
      memref.store %b, %out[%i0, %t] : memref<2x64xi32>
      %late = arith.cmpi uge, %t, %i10 : index
      %f = scf.if %late -> i32 {
        %first = gpu.subgroup_broadcast %v, first_active_lane : i32
        scf.yield %first : i32
      } else {
        %none = arith.constant -1 : i32
        scf.yield %none : i32
      }
      memref.store %f, %out[%i1, %t] : memref<2x64xi32>
      gpu.return
    }

    // Lanes 32 and up end; lanes 0 to 31 then broadcast lane 40's value
    // (64 - 24).
    gpu.func @exitedRead(%out: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %leaves = arith.cmpi uge, %t, %c32 : index
      cf.cond_br %leaves, ^done, ^broadcast
    ^broadcast:
      %v = arith.index_cast %t : index to i32
      %n = gpu.block_dim x
      %c24 = arith.constant 24 : index
      %l = arith.subi %n, %c24 : index
      %lane = arith.index_cast %l : index to i32
      %b = gpu.subgroup_broadcast %v, specific_lane %lane : i32
      memref.store %b, %out[%t] : memref<64xi32>
      gpu.return
    ^done:
      gpu.return
    }

    // Lanes 32 and up end; lanes 0 to 31 then read lanes 32 to 63.
    gpu.func @exited(%out: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %leaves = arith.cmpi uge, %t, %c32 : index
      cf.cond_br %leaves, ^done, ^shuffle
    ^shuffle:
      %v = arith.index_cast %t : index to i32
      %offset = arith.constant 32 : i32
      %width = arith.constant 64 : i32
      %s, %valid = gpu.shuffle xor %v, %offset, %width : i32
      memref.store %s, %out[%t] : memref<64xi32>
      gpu.return
    ^done:
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100 : index

    %shuffles = gpu.alloc () : memref<5x32xi32>
    gpu.launch_func @kernels::@shuffles blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%shuffles : memref<5x32xi32>)
    %hs = memref.alloc () : memref<5x32xi32>
    gpu.memcpy %hs, %shuffles : memref<5x32xi32>, memref<5x32xi32>
    %hsu = memref.cast %hs : memref<5x32xi32> to memref<*xi32>
    call @printMemrefI32(%hsu) : (memref<*xi32>) -> ()
    // CHECK:      [105,   104,   107,   106,   101,   100,   103,   102,   113,   112,   115,   114,   109,   108,   111,   110,   121,   120,   123,   122,   117,   116,   119,   118,   129,   128,   131,   130,   125,   124,   127,   126],
    // CHECK-NEXT: [-100,   -101,   -102,   100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   -116,   -117,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131],
    // CHECK-NEXT: [103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   113,   114,   115,   -113,   -114,   -115,   -116,   -117,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131],
    // CHECK-NEXT: [107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   107,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131],
    // CHECK-NEXT: [102,   103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   113,   114,   115,   116,   117,   118,   119,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131]]

    %butterfly = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@butterfly blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%butterfly : memref<64xi32>)
    %hb = memref.alloc () : memref<64xi32>
    gpu.memcpy %hb, %butterfly : memref<64xi32>, memref<64xi32>
    %hbu = memref.cast %hb : memref<64xi32> to memref<*xi32>
    call @printMemrefI32(%hbu) : (memref<*xi32>) -> ()
    // HIP:  [2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016,   2016]
    // HOST: [496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   496,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520,   1520]

    %reduce = gpu.alloc () : memref<5xi32>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%c100, %c1, %c1) args(%reduce : memref<5xi32>)
    %hr = memref.alloc () : memref<5xi32>
    gpu.memcpy %hr, %reduce : memref<5xi32>, memref<5xi32>
    %hru = memref.cast %hr : memref<5xi32> to memref<*xi32>
    call @printMemrefI32(%hru) : (memref<*xi32>) -> ()
    // Lanes 1 to 64, and 65 to 100, on the HIP stand-in; 1 to 32, and 65 to
    // 96 on the host.
    // HIP:  [-1,  1,  2080,  2970,  64]
    // HOST: [-1,  1,  528,  2576,  32]

    %broadcast = gpu.alloc () : memref<2x64xi32>
    gpu.launch_func @kernels::@broadcast blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%broadcast : memref<2x64xi32>)
    %hc = memref.alloc () : memref<2x64xi32>
    gpu.memcpy %hc, %broadcast : memref<2x64xi32>, memref<2x64xi32>
    %hcu = memref.cast %hc : memref<2x64xi32> to memref<*xi32>
    call @printMemrefI32(%hcu) : (memref<*xi32>) -> ()
    // HIP:  [1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005],
    // HIP-NEXT: [-1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010]]
    // HOST: [1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1005,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037,   1037],
    // HOST-NEXT: [-1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1010,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032,   1032]]
    return
  }

  func.func @exitedLane() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@exited blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    return
  }

  func.func @exitedBroadcast() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@exitedRead blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    return
  }
}
