// A warp reduction with shuffles: each thread loads one of 2^22 integers, 5
// gpu.shuffle xor steps (offsets 1, 2, 4, 8, 16, width 32) leave every lane
// of a subgroup holding the subgroup's sum, and lane 0 writes it. 256 threads
// a block, no barriers. Prints the seconds of each timed launch (after
// warm-up), then a checksum of the subgroup sums: the sum over subgroups w of
// (w + 1) * sum(w).
//
// @main runs 1 warm-up launch and 5 timed ones; @bench takes the two counts
// (gpu-runner-host -e bench --input=i64=W --input=i64=R shuffle.mlir).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // in[i] = (7 * i + 3) mod 17 - 8, as in allreduce.mlir.
    gpu.func @fill(%in: memref<?xi32>) kernel {
      %i = gpu.global_id x
      %i64 = arith.index_cast %i : index to i64
      %c7 = arith.constant 7 : i64
      %c3 = arith.constant 3 : i64
      %c17 = arith.constant 17 : i64
      %c8 = arith.constant 8 : i64
      %a = arith.muli %i64, %c7 : i64
      %b = arith.addi %a, %c3 : i64
      %r = arith.remui %b, %c17 : i64
      %v = arith.subi %r, %c8 : i64
      %v32 = arith.trunci %v : i64 to i32
      memref.store %v32, %in[%i] : memref<?xi32>
      gpu.return
    }

    gpu.func @warp_sums(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %width = arith.constant 32 : i32
      %o1 = arith.constant 1 : i32
      %o2 = arith.constant 2 : i32
      %o4 = arith.constant 4 : i32
      %o8 = arith.constant 8 : i32
      %o16 = arith.constant 16 : i32
      %i = gpu.global_id x
      %v0 = memref.load %in[%i] : memref<?xi32>
      %s1, %ok1 = gpu.shuffle xor %v0, %o1, %width : i32
      %v1 = arith.addi %v0, %s1 : i32
      %s2, %ok2 = gpu.shuffle xor %v1, %o2, %width : i32
      %v2 = arith.addi %v1, %s2 : i32
      %s4, %ok4 = gpu.shuffle xor %v2, %o4, %width : i32
      %v4 = arith.addi %v2, %s4 : i32
      %s8, %ok8 = gpu.shuffle xor %v4, %o8, %width : i32
      %v8 = arith.addi %v4, %s8 : i32
      %s16, %ok16 = gpu.shuffle xor %v8, %o16, %width : i32
      %sum = arith.addi %v8, %s16 : i32
      %lane = gpu.lane_id
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        %w = arith.divui %i, %c32 : index
        memref.store %sum, %out[%w] : memref<?xi32>
      }
      gpu.return
    }
  }

  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %warmup = arith.constant 1 : i64
    %runs = arith.constant 5 : i64
    func.call @bench(%warmup, %runs) : (i64, i64) -> ()
    return
  }

  func.func @bench(%warmup64: i64, %runs64: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 4194304 : index
    %block = arith.constant 256 : index
    %blocks = arith.divui %n, %block : index
    %warps = arith.divui %n, %c32 : index
    %warmup = arith.index_cast %warmup64 : i64 to index
    %runs = arith.index_cast %runs64 : i64 to index
    %in = gpu.alloc (%n) : memref<?xi32>
    %out = gpu.alloc (%warps) : memref<?xi32>
    gpu.launch_func @kernels::@fill blocks in (%blocks, %c1, %c1) threads in (%block, %c1, %c1)
        args(%in : memref<?xi32>)
    %total = arith.addi %warmup, %runs : index
    scf.for %r = %c0 to %total step %c1 {
      %t0 = func.call @rtclock() : () -> f64
      gpu.launch_func @kernels::@warp_sums blocks in (%blocks, %c1, %c1) threads in (%block, %c1, %c1)
          args(%in : memref<?xi32>, %out : memref<?xi32>)
      %t1 = func.call @rtclock() : () -> f64
      %timed = arith.cmpi uge, %r, %warmup : index
      scf.if %timed {
        %dt = arith.subf %t1, %t0 : f64
        func.call @printF64(%dt) : (f64) -> ()
        func.call @printNewline() : () -> ()
      }
    }
    %h = memref.alloc(%warps) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %check = scf.for %w = %c0 to %warps step %c1 iter_args(%acc = %zero) -> i64 {
      %v = memref.load %h[%w] : memref<?xi32>
      %v64 = arith.extsi %v : i32 to i64
      %w64 = arith.index_cast %w : index to i64
      %weight = arith.addi %w64, %one : i64
      %term = arith.muli %v64, %weight : i64
      %next = arith.addi %acc, %term : i64
      scf.yield %next : i64
    }
    func.call @printI64(%check) : (i64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %h : memref<?xi32>
    gpu.dealloc %in : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }
}
