// Shuffles, broadcasts, rotations and reductions that every thread of a
// block reaches together: the host backend runs such kernels as loops over
// the threads cut at each exchange, or, with --no-barrier-splitting, on
// fibers; both print the same. Blocks of 8 x 5 threads: a full subgroup
// (linear ids 0 to 31, linear = x + 8 y) and a partial one of 8 lanes (32
// to 39), whose missing lanes take no part. Each thread's value is
// v = linear + 1 + 100 * block; where an op says its result is not valid,
// the thread stores -v. Rows, in order: broadcast from lane 3, from the
// first active lane, rotation, cluster sums, idx shuffle, xor shuffle, all
// reduce in a loop. Where subgroups have 64 lanes (the SUBGROUP64 lines,
// HIP's gfx9), a block's 40 threads are one partial subgroup of 40 lanes:
// every lane gets lane 3's and lane 0's value, and lanes 32 to 39 are past
// the width of the rotation and of the idx shuffle, so not valid.
// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}
// RUN: %gpu-runner --check-bounds %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchanges(%out: memref<7x80xi32>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %c40 = arith.constant 40 : index
      %c100 = arith.constant 100 : index
      %row = arith.muli %ty, %c8 : index
      %linear = arith.addi %tx, %row : index
      %first = arith.muli %bid, %c40 : index
      %slot = arith.addi %first, %linear : index
      %l1 = arith.addi %linear, %c1 : index
      %b100 = arith.muli %bid, %c100 : index
      %vi = arith.addi %l1, %b100 : index
      %v = arith.index_cast %vi : index to i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %w = arith.muli %v, %v : i32
      %c1_i32 = arith.constant 1 : i32
      %c3_i32 = arith.constant 3 : i32
      %c7_i32 = arith.constant 7 : i32
      %c8_i32 = arith.constant 8 : i32
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32

      // Lane 3's value, and the first active lane's (lane 0: all are).
      %b3 = gpu.subgroup_broadcast %v, specific_lane %c3_i32 : i32
      memref.store %b3, %out[%c0, %slot] : memref<7x80xi32>
      %bf = gpu.subgroup_broadcast %v, first_active_lane : i32
      memref.store %bf, %out[%c1, %slot] : memref<7x80xi32>

      // Lane k < 8 reads lane (k + 1) mod 8; lanes 8 and up are not valid.
      %r, %rok = gpu.rotate %v, 1, 8 : i32
      %rv = arith.select %rok, %r, %neg : i32
      memref.store %rv, %out[%c2, %slot] : memref<7x80xi32>

      // Sums over clusters of 4 lanes, in every lane of the cluster.
      %cs = gpu.subgroup_reduce add %v cluster(size = 4) : (i32) -> i32
      memref.store %cs, %out[%c3, %slot] : memref<7x80xi32>

      // Lane k < 8 reads lane 3 k mod 8, a source that differs per lane.
      %lane = gpu.lane_id
      %lane32 = arith.index_cast %lane : index to i32
      %times3 = arith.muli %lane32, %c3_i32 : i32
      %src = arith.andi %times3, %c7_i32 : i32
      %s, %sok = gpu.shuffle idx %v, %src, %c8_i32 : i32
      %sv = arith.select %sok, %s, %neg : i32
      memref.store %sv, %out[%c4, %slot] : memref<7x80xi32>

      // Lane k reads lane k xor 16, which the partial subgroup lacks (its
      // lanes keep their own value); v^2, from before the cuts, added.
      %x, %xok = gpu.shuffle xor %v, %c16_i32, %c32_i32 : i32
      %xw = arith.addi %x, %w : i32
      memref.store %xw, %out[%c5, %slot] : memref<7x80xi32>

      // A block maximum (a region of its own) in a loop that carries each
      // thread's value: v + M, + 2 M, + 4 M, where M is the block's largest
      // v.
      %acc = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %v) -> i32 {
        %m = gpu.all_reduce %a uniform {
        ^bb(%lhs: i32, %rhs: i32):
          %max = arith.maxsi %lhs, %rhs : i32
          gpu.yield %max : i32
        } : (i32) -> i32
        %next = arith.addi %a, %m : i32
        scf.yield %next : i32
      }
      memref.store %acc, %out[%c6, %slot] : memref<7x80xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<7x80xi32>
    gpu.launch_func @kernels::@exchanges blocks in (%c2, %c1, %c1) threads in (%c8, %c5, %c1)
        args(%out : memref<7x80xi32>)
    %host = memref.alloc() : memref<7x80xi32>
    gpu.memcpy %host, %out : memref<7x80xi32>, memref<7x80xi32>
    %cast = memref.cast %host : memref<7x80xi32> to memref<*xi32>
    // CHECK: rank = 2 offset = 0 sizes = [7, 80] strides = [80, 1] data =
    // SUBGROUP32-NEXT: {{\[\[}}4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   36,   36,   36,   36,   36,   36,   36,   36,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   136,   136,   136,   136,   136,   136,   136,   136],
    // SUBGROUP64-NEXT: {{\[\[}}4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104,   104],
    // SUBGROUP32-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   33,   33,   33,   33,   33,   33,   33,   33,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   133,   133,   133,   133,   133,   133,   133,   133],
    // SUBGROUP64-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101,   101],
    // SUBGROUP32-NEXT:  [2,   3,   4,   5,   6,   7,   8,   1,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   34,   35,   36,   37,   38,   39,   40,   33,   102,   103,   104,   105,   106,   107,   108,   101,   -109,   -110,   -111,   -112,   -113,   -114,   -115,   -116,   -117,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131,   -132,   134,   135,   136,   137,   138,   139,   140,   133],
    // SUBGROUP64-NEXT:  [2,   3,   4,   5,   6,   7,   8,   1,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40,   102,   103,   104,   105,   106,   107,   108,   101,   -109,   -110,   -111,   -112,   -113,   -114,   -115,   -116,   -117,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131,   -132,   -133,   -134,   -135,   -136,   -137,   -138,   -139,   -140],
    // CHECK-NEXT:  [10,   10,   10,   10,   26,   26,   26,   26,   42,   42,   42,   42,   58,   58,   58,   58,   74,   74,   74,   74,   90,   90,   90,   90,   106,   106,   106,   106,   122,   122,   122,   122,   138,   138,   138,   138,   154,   154,   154,   154,   410,   410,   410,   410,   426,   426,   426,   426,   442,   442,   442,   442,   458,   458,   458,   458,   474,   474,   474,   474,   490,   490,   490,   490,   506,   506,   506,   506,   522,   522,   522,   522,   538,   538,   538,   538,   554,   554,   554,   554],
    // SUBGROUP32-NEXT:  [1,   4,   7,   2,   5,   8,   3,   6,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   33,   36,   39,   34,   37,   40,   35,   38,   101,   104,   107,   102,   105,   108,   103,   106,   -109,   -110,   -111,   -112,   -113,   -114,   -115,   -116,   -117,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131,   -132,   133,   136,   139,   134,   137,   140,   135,   138],
    // SUBGROUP64-NEXT:  [1,   4,   7,   2,   5,   8,   3,   6,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40,   101,   104,   107,   102,   105,   108,   103,   106,   -109,   -110,   -111,   -112,   -113,   -114,   -115,   -116,   -117,   -118,   -119,   -120,   -121,   -122,   -123,   -124,   -125,   -126,   -127,   -128,   -129,   -130,   -131,   -132,   -133,   -134,   -135,   -136,   -137,   -138,   -139,   -140],
    // CHECK-NEXT:  [18,   22,   28,   36,   46,   58,   72,   88,   106,   126,   148,   172,   198,   226,   256,   288,   290,   326,   364,   404,   446,   490,   536,   584,   634,   686,   740,   796,   854,   914,   976,   1040,   1122,   1190,   1260,   1332,   1406,   1482,   1560,   1640,   10318,   10522,   10728,   10936,   11146,   11358,   11572,   11788,   12006,   12226,   12448,   12672,   12898,   13126,   13356,   13588,   13790,   14026,   14264,   14504,   14746,   14990,   15236,   15484,   15734,   15986,   16240,   16496,   16754,   17014,   17276,   17540,   17822,   18090,   18360,   18632,   18906,   19182,   19460,   19740],
    // CHECK-NEXT:  [281,   282,   283,   284,   285,   286,   287,   288,   289,   290,   291,   292,   293,   294,   295,   296,   297,   298,   299,   300,   301,   302,   303,   304,   305,   306,   307,   308,   309,   310,   311,   312,   313,   314,   315,   316,   317,   318,   319,   320,   1081,   1082,   1083,   1084,   1085,   1086,   1087,   1088,   1089,   1090,   1091,   1092,   1093,   1094,   1095,   1096,   1097,   1098,   1099,   1100,   1101,   1102,   1103,   1104,   1105,   1106,   1107,   1108,   1109,   1110,   1111,   1112,   1113,   1114,   1115,   1116,   1117,   1118,   1119,   1120]]
    call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<7x80xi32>
    gpu.dealloc %out : memref<7x80xi32>
    return
  }
}
