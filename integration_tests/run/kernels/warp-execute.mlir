// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// A warp of 32 lanes is any subgroup's or a part of it: its lane ids are
// the thread's linear id mod 32 (gpu.lane_id goes up to 63 where subgroups
// have 64 lanes).

// gpu.warp_execute_on_lane_0: lane 0 of each warp of 32 runs the body on
// the whole of each distributed value, the lanes' pieces side by side in
// lane order, and each lane gets back its piece of each distributed result,
// or the whole of a result whose type is the yielded one (GPUOps.td,
// WarpExecuteOnLane0Op: "the distributed dimension is the outermost one";
// results "of the same type as the yielded value are broadcasted").

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread t (warp t / 32, lane t mod 32) gives [2t, 2t + 1]; lane 0
    // reverses the warp's 64 values and sums them. Lane k of warp w gets
    // [64w + 63 - 2k, 64w + 62 - 2k] and the sum 4096w + 2016.
    gpu.func @reverse(%out: memref<64x3xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %lane = arith.remui %t, %c32 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %t2 = arith.muli %t, %c2 : index
      %t21 = arith.addi %t2, %c1 : index
      %a = arith.index_cast %t2 : index to i32
      %b = arith.index_cast %t21 : index to i32
      %af = arith.sitofp %a : i32 to f32
      %bf = arith.sitofp %b : i32 to f32
      %mine = vector.from_elements %af, %bf : vector<2xf32>
      %piece, %sum = gpu.warp_execute_on_lane_0(%lane)[32]
          args(%mine : vector<2xf32>) -> (vector<2xf32>, f32) {
      ^bb0(%all: vector<64xf32>):
        %r = vector.shuffle %all, %all [63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0] : vector<64xf32>, vector<64xf32>
        %zero = arith.constant 0.0 : f32
        %s = vector.reduction <add>, %all, %zero : vector<64xf32> into f32
        gpu.yield %r, %s : vector<64xf32>, f32
      }
      %p0 = vector.extract %piece[0] : f32 from vector<2xf32>
      %p1 = vector.extract %piece[1] : f32 from vector<2xf32>
      %c0 = arith.constant 0 : index
      memref.store %p0, %out[%t, %c0] : memref<64x3xf32>
      memref.store %p1, %out[%t, %c1] : memref<64x3xf32>
      memref.store %sum, %out[%t, %c2] : memref<64x3xf32>
      gpu.return
    }

    // 40 threads: the second warp has 8 lanes. In a loop, with no operands:
    // on round i lane 0 of warp w yields 100 i + 32 w (its own id plus
    // 100 i), which every lane of its warp gets and adds up: 300 + 96 w.
    gpu.func @broadcast_loop(%out: memref<40xf32>) kernel {
      %t = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %lane = arith.remui %t, %c32 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c100 = arith.constant 100 : index
      %zero = arith.constant 0.0 : f32
      %total = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f32 {
        %got = gpu.warp_execute_on_lane_0(%lane)[32] -> (f32) {
          %h = arith.muli %i, %c100 : index
          %v = arith.addi %h, %t : index
          %vi = arith.index_cast %v : index to i32
          %vf = arith.sitofp %vi : i32 to f32
          gpu.yield %vf : f32
        }
        %next = arith.addf %acc, %got : f32
        scf.yield %next : f32
      }
      memref.store %total, %out[%t] : memref<40xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %out = gpu.alloc () : memref<64x3xf32>
    gpu.launch_func @kernels::@reverse blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%out : memref<64x3xf32>)
    %h = memref.alloc () : memref<64x3xf32>
    gpu.memcpy %h, %out : memref<64x3xf32>, memref<64x3xf32>
    %u = memref.cast %h : memref<64x3xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %out : memref<64x3xf32>

    %out2 = gpu.alloc () : memref<40xf32>
    gpu.launch_func @kernels::@broadcast_loop blocks in (%c1, %c1, %c1)
        threads in (%c40, %c1, %c1) args(%out2 : memref<40xf32>)
    %h2 = memref.alloc () : memref<40xf32>
    gpu.memcpy %h2, %out2 : memref<40xf32>, memref<40xf32>
    %u2 = memref.cast %h2 : memref<40xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    gpu.dealloc %out2 : memref<40xf32>
    memref.dealloc %h : memref<64x3xf32>
    memref.dealloc %h2 : memref<40xf32>
    return
  }
}

// CHECK: rank = 2 offset = 0 sizes = [64, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}63,   62,   2016]
// CHECK-NEXT:  [61,   60,   2016]
// CHECK-NEXT:  [59,   58,   2016]
// CHECK-NEXT:  [57,   56,   2016]
// CHECK-NEXT:  [55,   54,   2016]
// CHECK-NEXT:  [53,   52,   2016]
// CHECK-NEXT:  [51,   50,   2016]
// CHECK-NEXT:  [49,   48,   2016]
// CHECK-NEXT:  [47,   46,   2016]
// CHECK-NEXT:  [45,   44,   2016]
// CHECK-NEXT:  [43,   42,   2016]
// CHECK-NEXT:  [41,   40,   2016]
// CHECK-NEXT:  [39,   38,   2016]
// CHECK-NEXT:  [37,   36,   2016]
// CHECK-NEXT:  [35,   34,   2016]
// CHECK-NEXT:  [33,   32,   2016]
// CHECK-NEXT:  [31,   30,   2016]
// CHECK-NEXT:  [29,   28,   2016]
// CHECK-NEXT:  [27,   26,   2016]
// CHECK-NEXT:  [25,   24,   2016]
// CHECK-NEXT:  [23,   22,   2016]
// CHECK-NEXT:  [21,   20,   2016]
// CHECK-NEXT:  [19,   18,   2016]
// CHECK-NEXT:  [17,   16,   2016]
// CHECK-NEXT:  [15,   14,   2016]
// CHECK-NEXT:  [13,   12,   2016]
// CHECK-NEXT:  [11,   10,   2016]
// CHECK-NEXT:  [9,   8,   2016]
// CHECK-NEXT:  [7,   6,   2016]
// CHECK-NEXT:  [5,   4,   2016]
// CHECK-NEXT:  [3,   2,   2016]
// CHECK-NEXT:  [1,   0,   2016]
// CHECK-NEXT:  [127,   126,   6112]
// CHECK-NEXT:  [125,   124,   6112]
// CHECK-NEXT:  [123,   122,   6112]
// CHECK-NEXT:  [121,   120,   6112]
// CHECK-NEXT:  [119,   118,   6112]
// CHECK-NEXT:  [117,   116,   6112]
// CHECK-NEXT:  [115,   114,   6112]
// CHECK-NEXT:  [113,   112,   6112]
// CHECK-NEXT:  [111,   110,   6112]
// CHECK-NEXT:  [109,   108,   6112]
// CHECK-NEXT:  [107,   106,   6112]
// CHECK-NEXT:  [105,   104,   6112]
// CHECK-NEXT:  [103,   102,   6112]
// CHECK-NEXT:  [101,   100,   6112]
// CHECK-NEXT:  [99,   98,   6112]
// CHECK-NEXT:  [97,   96,   6112]
// CHECK-NEXT:  [95,   94,   6112]
// CHECK-NEXT:  [93,   92,   6112]
// CHECK-NEXT:  [91,   90,   6112]
// CHECK-NEXT:  [89,   88,   6112]
// CHECK-NEXT:  [87,   86,   6112]
// CHECK-NEXT:  [85,   84,   6112]
// CHECK-NEXT:  [83,   82,   6112]
// CHECK-NEXT:  [81,   80,   6112]
// CHECK-NEXT:  [79,   78,   6112]
// CHECK-NEXT:  [77,   76,   6112]
// CHECK-NEXT:  [75,   74,   6112]
// CHECK-NEXT:  [73,   72,   6112]
// CHECK-NEXT:  [71,   70,   6112]
// CHECK-NEXT:  [69,   68,   6112]
// CHECK-NEXT:  [67,   66,   6112]
// CHECK-NEXT:  [65,   64,   6112]
// CHECK: rank = 1 offset = 0 sizes = [40] strides = [1] data =
// CHECK-NEXT: [300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  300,  396,  396,  396,  396,  396,  396,  396,  396]
