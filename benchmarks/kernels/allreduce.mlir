// A block reduction with gpu.all_reduce: per-block sums of 2^22 integers, 256
// threads a block; thread 0 of each block writes the block's sum. Prints the
// seconds of each timed launch (after warm-up), then a checksum of the block
// sums: the sum over blocks b of (b + 1) * sum(b).
//
// @main runs 1 warm-up launch and 5 timed ones; @bench takes the two counts
// (gpu-runner-host -e bench --input=i64=W --input=i64=R allreduce.mlir).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // in[i] = (7 * i + 3) mod 17 - 8: values -8..8, different sums per block.
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

    gpu.func @block_sums(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xi32>
      %sum = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %bid = gpu.block_id x
        memref.store %sum, %out[%bid] : memref<?xi32>
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
    %n = arith.constant 4194304 : index
    %block = arith.constant 256 : index
    %blocks = arith.divui %n, %block : index
    %warmup = arith.index_cast %warmup64 : i64 to index
    %runs = arith.index_cast %runs64 : i64 to index
    %in = gpu.alloc (%n) : memref<?xi32>
    %out = gpu.alloc (%blocks) : memref<?xi32>
    gpu.launch_func @kernels::@fill blocks in (%blocks, %c1, %c1) threads in (%block, %c1, %c1)
        args(%in : memref<?xi32>)
    %total = arith.addi %warmup, %runs : index
    scf.for %r = %c0 to %total step %c1 {
      %t0 = func.call @rtclock() : () -> f64
      gpu.launch_func @kernels::@block_sums blocks in (%blocks, %c1, %c1) threads in (%block, %c1, %c1)
          args(%in : memref<?xi32>, %out : memref<?xi32>)
      %t1 = func.call @rtclock() : () -> f64
      %timed = arith.cmpi uge, %r, %warmup : index
      scf.if %timed {
        %dt = arith.subf %t1, %t0 : f64
        func.call @printF64(%dt) : (f64) -> ()
        func.call @printNewline() : () -> ()
      }
    }
    %h = memref.alloc(%blocks) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %check = scf.for %b = %c0 to %blocks step %c1 iter_args(%acc = %zero) -> i64 {
      %v = memref.load %h[%b] : memref<?xi32>
      %w = arith.extsi %v : i32 to i64
      %b64 = arith.index_cast %b : index to i64
      %weight = arith.addi %b64, %one : i64
      %term = arith.muli %w, %weight : i64
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
