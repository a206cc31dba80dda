// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}

// gpu.rotate and gpu.subgroup_broadcast, lowered to shuffles (rotate) and
// broadcasts among the active lanes. Every thread stores what it got, or -v
// where the op says its result is not valid; v = linear id + 1. Blocks of
// 40 threads end in a partial subgroup of 8 lanes (32 to 39), so rotations
// there are at most 8 wide: GPUDialect's gpu.rotate needs "the first
// `width` lanes of the subgroup" active, and a lane past the block's
// threads never is. The kernels take lane = linear id mod 32. Where
// subgroups have 64 lanes (HIP's gfx9; the lines of the other prefix), a
// block of 40 or 64 threads is one subgroup: lanes 32 and up are past every
// rotation's width, and every lane broadcasts from the first 32.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate(%which: index, %out: memref<?xi32>) kernel {
      %linear = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %v1 = arith.addi %linear, %c1 : index
      %v = arith.index_cast %v1 : index to i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %r = scf.index_switch %which -> i32
      // i32 over the whole subgroup: lane k reads lane (k + 5) mod 32.
      case 0 {
        %s, %ok = gpu.rotate %v, 5, 32 : i32
        %x = arith.select %ok, %s, %neg : i32
        scf.yield %x : i32
      }
      // f32 over 8 lanes, the largest offset: lane k < 8 reads lane
      // (k + 7) mod 8; lanes 8 and up are not valid.
      case 1 {
        %f = arith.sitofp %v : i32 to f32
        %s, %ok = gpu.rotate %f, 7, 8 : f32
        %i = arith.fptosi %s : f32 to i32
        %x = arith.select %ok, %i, %neg : i32
        scf.yield %x : i32
      }
      // i64 whose halves differ (v << 32 | 2 v), 4 lanes, offset 1; the
      // result as 1000 * high + low.
      case 2 {
        %w = arith.extsi %v : i32 to i64
        %c32 = arith.constant 32 : i64
        %high = arith.shli %w, %c32 : i64
        %two = arith.addi %w, %w : i64
        %both = arith.ori %high, %two : i64
        %s, %ok = gpu.rotate %both, 1, 4 : i64
        %h = arith.shrui %s, %c32 : i64
        %hi = arith.trunci %h : i64 to i32
        %lo = arith.trunci %s : i64 to i32
        %c1000 = arith.constant 1000 : i32
        %h1000 = arith.muli %hi, %c1000 : i32
        %sum = arith.addi %h1000, %lo : i32
        %x = arith.select %ok, %sum, %neg : i32
        scf.yield %x : i32
      }
      // A vector of two i16 (v, 100 + v) and one of two f64 (v, -v), width
      // 2, offset 1: lanes trade in pairs. 1000 * first + second, and the
      // f64s summed (0) on top.
      case 3 {
        %v16 = arith.trunci %v : i32 to i16
        %c100 = arith.constant 100 : i16
        %w16 = arith.addi %v16, %c100 : i16
        %pair = vector.from_elements %v16, %w16 : vector<2xi16>
        %s, %ok = gpu.rotate %pair, 1, 2 : vector<2xi16>
        %a = vector.extract %s[0] : i16 from vector<2xi16>
        %b = vector.extract %s[1] : i16 from vector<2xi16>
        %a32 = arith.extsi %a : i16 to i32
        %b32 = arith.extsi %b : i16 to i32
        %c1000 = arith.constant 1000 : i32
        %a1000 = arith.muli %a32, %c1000 : i32
        %sum = arith.addi %a1000, %b32 : i32
        %f = arith.sitofp %v : i32 to f64
        %nf = arith.negf %f : f64
        %fpair = vector.from_elements %f, %nf : vector<2xf64>
        %fs, %fok = gpu.rotate %fpair, 1, 2 : vector<2xf64>
        %fa = vector.extract %fs[0] : f64 from vector<2xf64>
        %fb = vector.extract %fs[1] : f64 from vector<2xf64>
        %fz = arith.addf %fa, %fb : f64
        %z = arith.fptosi %fz : f64 to i32
        %all = arith.addi %sum, %z : i32
        %both = arith.andi %ok, %fok : i1
        %x = arith.select %both, %all, %neg : i32
        scf.yield %x : i32
      }
      // Width 1: a lane reads itself, and only lane 0 is valid.
      default {
        %s, %ok = gpu.rotate %v, 0, 1 : i32
        %x = arith.select %ok, %s, %neg : i32
        scf.yield %x : i32
      }
      memref.store %r, %out[%linear] : memref<?xi32>
      gpu.return
    }

    gpu.func @broadcast(%which: index, %source: i32, %out: memref<?xi32>) kernel {
      %linear = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %lane = arith.remui %linear, %c32 : index
      %v1 = arith.addi %linear, %c1 : index
      %v = arith.index_cast %v1 : index to i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %r = scf.index_switch %which -> i32
      // f64 from lane 3, a constant.
      case 0 {
        %f = arith.sitofp %v : i32 to f64
        %c3 = arith.constant 3 : i32
        %b = gpu.subgroup_broadcast %f, specific_lane %c3 : f64
        %x = arith.fptosi %b : f64 to i32
        scf.yield %x : i32
      }
      // i64 from the lane the kernel's argument names.
      case 1 {
        %w = arith.extsi %v : i32 to i64
        %b = gpu.subgroup_broadcast %w, specific_lane %source : i64
        %x = arith.trunci %b : i64 to i32
        scf.yield %x : i32
      }
      // index (the linear id) from the first active lane: every lane is.
      case 2 {
        %b = gpu.subgroup_broadcast %linear, first_active_lane : index
        %b1 = arith.addi %b, %c1 : index
        %x = arith.index_cast %b1 : index to i32
        scf.yield %x : i32
      }
      // Lanes 5 and up only: lane 5 is the first active one.
      case 3 {
        %c5 = arith.constant 5 : index
        %active = arith.cmpi uge, %lane, %c5 : index
        %x = scf.if %active -> i32 {
          %b = gpu.subgroup_broadcast %v, first_active_lane : i32
          scf.yield %b : i32
        } else {
          scf.yield %neg : i32
        }
        scf.yield %x : i32
      }
      // Odd lanes only, from lane 3 (active), a vector<2xf32> (v, 2 v)
      // summed.
      default {
        %c2 = arith.constant 2 : index
        %parity = arith.remui %lane, %c2 : index
        %odd = arith.cmpi eq, %parity, %c1 : index
        %x = scf.if %odd -> i32 {
          %f = arith.sitofp %v : i32 to f32
          %f2 = arith.addf %f, %f : f32
          %pair = vector.from_elements %f, %f2 : vector<2xf32>
          %c3 = arith.constant 3 : i32
          %b = gpu.subgroup_broadcast %pair, specific_lane %c3 : vector<2xf32>
          %a = vector.extract %b[0] : f32 from vector<2xf32>
          %c = vector.extract %b[1] : f32 from vector<2xf32>
          %s = arith.addf %a, %c : f32
          %i = arith.fptosi %s : f32 to i32
          scf.yield %i : i32
        } else {
          scf.yield %neg : i32
        }
        scf.yield %x : i32
      }
      memref.store %r, %out[%linear] : memref<?xi32>
      gpu.return
    }

    // Lanes 16 and up broadcast while the others go on to the barrier;
    // after it each thread reads its neighbour's result.
    gpu.func @broadcast_barrier(%out: memref<?xi32>)
        workgroup(%tile: memref<40xi32, #gpu.address_space<workgroup>>)
        kernel {
      %linear = gpu.thread_id x
      %n = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %lane = arith.remui %linear, %c32 : index
      %v1 = arith.addi %linear, %c1 : index
      %v = arith.index_cast %v1 : index to i32
      %zero = arith.constant 0 : i32
      %neg = arith.subi %zero, %v : i32
      %high = arith.cmpi uge, %lane, %c16 : index
      %r = scf.if %high -> i32 {
        %b = gpu.subgroup_broadcast %v, first_active_lane : i32
        scf.yield %b : i32
      } else {
        scf.yield %neg : i32
      }
      memref.store %r, %tile[%linear] : memref<40xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %next1 = arith.addi %linear, %c1 : index
      %next = arith.remui %next1, %n : index
      %x = memref.load %tile[%next] : memref<40xi32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%linear] : memref<?xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @print(%out: memref<?xi32>, %n: index) {
    %h = memref.alloc(%n) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %h : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }

  func.func @rotate(%which: index, %n: index) {
    %c1 = arith.constant 1 : index
    %out = gpu.alloc (%n) : memref<?xi32>
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%which : index, %out : memref<?xi32>)
    call @print(%out, %n) : (memref<?xi32>, index) -> ()
    return
  }

  func.func @broadcast(%which: index, %source: i32) {
    %c1 = arith.constant 1 : index
    %n = arith.constant 40 : index
    %out = gpu.alloc (%n) : memref<?xi32>
    gpu.launch_func @kernels::@broadcast blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%which : index, %source : i32, %out : memref<?xi32>)
    call @print(%out, %n) : (memref<?xi32>, index) -> ()
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %l0 = arith.constant 0 : i32
    %l7 = arith.constant 7 : i32

    // Two full subgroups.
    // SUBGROUP32: [6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  1,  2,  3,  4,  5,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,  62,  63,  64,  33,  34,  35,  36,  37]
    // SUBGROUP64: [6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31,   32,   1,   2,   3,   4,   5,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40,   -41,   -42,   -43,   -44,   -45,   -46,   -47,   -48,   -49,   -50,   -51,   -52,   -53,   -54,   -55,   -56,   -57,   -58,   -59,   -60,   -61,   -62,   -63,   -64]
    call @rotate(%c0, %c64) : (index, index) -> ()
    // SUBGROUP32: [8,  1,  2,  3,  4,  5,  6,  7,  -9,  -10,  -11,  -12,  -13,  -14,  -15,  -16,  -17,  -18,  -19,  -20,  -21,  -22,  -23,  -24,  -25,  -26,  -27,  -28,  -29,  -30,  -31,  -32,  40,  33,  34,  35,  36,  37,  38,  39]
    // SUBGROUP64: [8,   1,   2,   3,   4,   5,   6,   7,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40]
    call @rotate(%c1, %c40) : (index, index) -> ()
    // SUBGROUP32: [2004,  3006,  4008,  1002,  -5,  -6,  -7,  -8,  -9,  -10,  -11,  -12,  -13,  -14,  -15,  -16,  -17,  -18,  -19,  -20,  -21,  -22,  -23,  -24,  -25,  -26,  -27,  -28,  -29,  -30,  -31,  -32,  34068,  35070,  36072,  33066,  -37,  -38,  -39,  -40]
    // SUBGROUP64: [2004,   3006,   4008,   1002,   -5,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40]
    call @rotate(%c2, %c40) : (index, index) -> ()
    // SUBGROUP32: [2102,  1101,  -3,  -4,  -5,  -6,  -7,  -8,  -9,  -10,  -11,  -12,  -13,  -14,  -15,  -16,  -17,  -18,  -19,  -20,  -21,  -22,  -23,  -24,  -25,  -26,  -27,  -28,  -29,  -30,  -31,  -32,  34134,  33133,  -35,  -36,  -37,  -38,  -39,  -40]
    // SUBGROUP64: [2102,   1101,   -3,   -4,   -5,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40]
    call @rotate(%c3, %c40) : (index, index) -> ()
    // SUBGROUP32: [1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  -9,  -10,  -11,  -12,  -13,  -14,  -15,  -16,  -17,  -18,  -19,  -20,  -21,  -22,  -23,  -24,  -25,  -26,  -27,  -28,  -29,  -30,  -31,  -32,  33,  -34,  -35,  -36,  -37,  -38,  -39,  -40]
    // SUBGROUP64: [1,   -2,   -3,   -4,   -5,   -6,   -7,   -8,   -9,   -10,   -11,   -12,   -13,   -14,   -15,   -16,   -17,   -18,   -19,   -20,   -21,   -22,   -23,   -24,   -25,   -26,   -27,   -28,   -29,   -30,   -31,   -32,   -33,   -34,   -35,   -36,   -37,   -38,   -39,   -40]
    call @rotate(%c4, %c40) : (index, index) -> ()

    // SUBGROUP32: [4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  36,  36,  36,  36,  36,  36,  36,  36]
    // SUBGROUP64: [4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4,   4]
    call @broadcast(%c0, %l0) : (index, i32) -> ()
    // SUBGROUP32: [8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  8,  40,  40,  40,  40,  40,  40,  40,  40]
    // SUBGROUP64: [8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8,   8]
    call @broadcast(%c1, %l7) : (index, i32) -> ()
    // SUBGROUP32: [1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  33,  33,  33,  33,  33,  33,  33,  33]
    // SUBGROUP64: [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1]
    call @broadcast(%c2, %l0) : (index, i32) -> ()
    // SUBGROUP32: [-1,  -2,  -3,  -4,  -5,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  -33,  -34,  -35,  -36,  -37,  38,  38,  38]
    // SUBGROUP64: [-1,   -2,   -3,   -4,   -5,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   6,   -33,   -34,   -35,   -36,   -37,   6,   6,   6]
    call @broadcast(%c3, %l0) : (index, i32) -> ()
    // SUBGROUP32: [-1,  12,  -3,  12,  -5,  12,  -7,  12,  -9,  12,  -11,  12,  -13,  12,  -15,  12,  -17,  12,  -19,  12,  -21,  12,  -23,  12,  -25,  12,  -27,  12,  -29,  12,  -31,  12,  -33,  108,  -35,  108,  -37,  108,  -39,  108]
    // SUBGROUP64: [-1,   12,   -3,   12,   -5,   12,   -7,   12,   -9,   12,   -11,   12,   -13,   12,   -15,   12,   -17,   12,   -19,   12,   -21,   12,   -23,   12,   -25,   12,   -27,   12,   -29,   12,   -31,   12,   -33,   12,   -35,   12,   -37,   12,   -39,   12]
    call @broadcast(%c4, %l0) : (index, i32) -> ()

    // Thread t holds thread t + 1's result: -(t + 2) below lane 15 of each
    // subgroup, lane 16's value from there on (17; in the partial subgroup,
    // where no lane reaches 16, -(t + 2)); the last wraps to thread 0.
    // CHECK: [-2,  -3,  -4,  -5,  -6,  -7,  -8,  -9,  -10,  -11,  -12,  -13,  -14,  -15,  -16,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  17,  -33,  -34,  -35,  -36,  -37,  -38,  -39,  -40,  -1]
    %bb = gpu.alloc (%c40) : memref<?xi32>
    gpu.launch_func @kernels::@broadcast_barrier blocks in (%c1, %c1, %c1) threads in (%c40, %c1, %c1)
        args(%bb : memref<?xi32>)
    call @print(%bb, %c40) : (memref<?xi32>, index) -> ()
    return
  }
}
