// A block reduction with barriers: 2^22 integers, 256 threads a block, a tree
// in workgroup memory with a barrier per level; each block writes its sum.
// Every thread reaches every barrier, so the host backend runs the threads as
// loops cut at the barriers (on fibers with --no-barrier-splitting). Prints
// the seconds of each timed launch (after warm-up), then the total of the
// block sums.
//
// @main runs 1 warm-up launch and 5 timed ones; @bench takes the two counts
// (gpu-runner-host -e bench --input=i64=W --input=i64=R ...).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sums(%in: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%partial: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %partial[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c128 = arith.constant 128 : index
      scf.while (%half = %c128) : (index) -> index {
        %more = arith.cmpi ugt, %half, %c0 : index
        scf.condition(%more) %half : index
      } do {
      ^bb0(%half: index):
        %active = arith.cmpi ult, %tid, %half : index
        scf.if %active {
          %j = arith.addi %tid, %half : index
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
    %three = arith.constant 3 : i32
    gpu.memset %in, %three : memref<?xi32>, i32
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
    // 3 * 2^22 = 12582912
    %h = memref.alloc(%blocks) : memref<?xi32>
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    %zero = arith.constant 0 : i64
    %sum = scf.for %b = %c0 to %blocks step %c1 iter_args(%acc = %zero) -> i64 {
      %v = memref.load %h[%b] : memref<?xi32>
      %w = arith.extsi %v : i32 to i64
      %next = arith.addi %acc, %w : i64
      scf.yield %next : i64
    }
    func.call @printI64(%sum) : (i64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %in : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }
}
