// Memcpy throughput of gpu.memcpy, as gpu-runner lowers it, in every
// direction: one entry point per kind of copy.
//
//   h2d_pageable  host (memref.alloc) to device (gpu.alloc)
//   h2d_pinned    the same, the host memory registered (gpu.host_register)
//   d2h_pageable  device to host
//   d2h_pinned    device to registered host memory
//   d2d           device to device (bytes counted once)
//
//   gpu-runner -e h2d_pinned benchmarks/memcpy/memcpy.mlir
//
// For each size from MEMCPY_BENCH_MIN_BYTES to MEMCPY_BENCH_MAX_BYTES
// (doubling), fresh buffers are allocated and filled, W warm-up batches run,
// then S timed batches, each `copies` asynchronous copies of the whole buffer
// on one stream between the two points of a timer (mgpuTimer*: CUDA events
// on a GPU, the stream's clock on the host backend). Then the destination is
// checked element by element. Last, the same at MEMCPY_BENCH_SMALL_BYTES for
// the cost of a small copy. Output, one line per timed batch and per check:
//
//   sample <kind> <bytes> <copies> <device ns> <host ns>
//   small  <kind> <bytes> <copies> <device ns> <host ns>
//   check  <kind> <bytes> <wrong elements>
//
// "host ns" is the time the program spent enqueueing the batch's copies.
// benchmarks/memcpy/README.md lists the environment variables and defaults;
// scripts/bench-memcpy runs this against the native baseline.

module {
  llvm.mlir.global internal constant @min_bytes_name("MEMCPY_BENCH_MIN_BYTES\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @max_bytes_name("MEMCPY_BENCH_MAX_BYTES\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @batch_bytes_name("MEMCPY_BENCH_BATCH_BYTES\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @max_copies_name("MEMCPY_BENCH_MAX_COPIES\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @samples_name("MEMCPY_BENCH_SAMPLES\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @warmup_name("MEMCPY_BENCH_WARMUP\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @small_bytes_name("MEMCPY_BENCH_SMALL_BYTES\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @small_copies_name("MEMCPY_BENCH_SMALL_COPIES\00") {addr_space = 0 : i32}

  func.func private @getenv(!llvm.ptr) -> !llvm.ptr
  func.func private @strtoll(!llvm.ptr, !llvm.ptr, i32) -> i64
  func.func private @rtclock() -> f64
  func.func private @mgpuTimerCreate() -> !llvm.ptr
  func.func private @mgpuTimerDestroy(!llvm.ptr)
  func.func private @mgpuTimerStart(!llvm.ptr, !gpu.async.token)
  func.func private @mgpuTimerStop(!llvm.ptr, !gpu.async.token)
  func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64

  func.func @h2d_pageable() {
    %kind = arith.constant 0 : index
    func.call @sweep(%kind) : (index) -> ()
    return
  }
  func.func @h2d_pinned() {
    %kind = arith.constant 1 : index
    func.call @sweep(%kind) : (index) -> ()
    return
  }
  func.func @d2h_pageable() {
    %kind = arith.constant 2 : index
    func.call @sweep(%kind) : (index) -> ()
    return
  }
  func.func @d2h_pinned() {
    %kind = arith.constant 3 : index
    func.call @sweep(%kind) : (index) -> ()
    return
  }
  func.func @d2d() {
    %kind = arith.constant 4 : index
    func.call @sweep(%kind) : (index) -> ()
    return
  }

  // The integer in the environment variable `name`, or `default`.
  func.func @param(%name: !llvm.ptr, %default: i64) -> i64 {
    %text = func.call @getenv(%name) : (!llvm.ptr) -> !llvm.ptr
    %null = llvm.mlir.zero : !llvm.ptr
    %unset = llvm.icmp "eq" %text, %null : !llvm.ptr
    %value = scf.if %unset -> i64 {
      scf.yield %default : i64
    } else {
      %base = arith.constant 0 : i32
      %v = func.call @strtoll(%text, %null, %base) : (!llvm.ptr, !llvm.ptr, i32) -> i64
      scf.yield %v : i64
    }
    return %value : i64
  }

  func.func @sweep(%kind: index) {
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %d_min = arith.constant 4096 : i64
    %d_max = arith.constant 1073741824 : i64
    %d_batch = arith.constant 268435456 : i64
    %d_copies = arith.constant 1000 : i64
    %d_samples = arith.constant 5 : i64
    %d_warmup = arith.constant 1 : i64
    %d_small = arith.constant 8 : i64
    %d_small_copies = arith.constant 1000 : i64
    %n_min = llvm.mlir.addressof @min_bytes_name : !llvm.ptr
    %n_max = llvm.mlir.addressof @max_bytes_name : !llvm.ptr
    %n_batch = llvm.mlir.addressof @batch_bytes_name : !llvm.ptr
    %n_copies = llvm.mlir.addressof @max_copies_name : !llvm.ptr
    %n_samples = llvm.mlir.addressof @samples_name : !llvm.ptr
    %n_warmup = llvm.mlir.addressof @warmup_name : !llvm.ptr
    %n_small = llvm.mlir.addressof @small_bytes_name : !llvm.ptr
    %n_small_copies = llvm.mlir.addressof @small_copies_name : !llvm.ptr
    %min = func.call @param(%n_min, %d_min) : (!llvm.ptr, i64) -> i64
    %max = func.call @param(%n_max, %d_max) : (!llvm.ptr, i64) -> i64
    %batch = func.call @param(%n_batch, %d_batch) : (!llvm.ptr, i64) -> i64
    %max_copies = func.call @param(%n_copies, %d_copies) : (!llvm.ptr, i64) -> i64
    %samples = func.call @param(%n_samples, %d_samples) : (!llvm.ptr, i64) -> i64
    %warmup = func.call @param(%n_warmup, %d_warmup) : (!llvm.ptr, i64) -> i64
    %small = func.call @param(%n_small, %d_small) : (!llvm.ptr, i64) -> i64
    %small_copies = func.call @param(%n_small_copies, %d_small_copies) : (!llvm.ptr, i64) -> i64

    %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
    %sample_tag = arith.constant 0 : index
    %small_tag = arith.constant 1 : index
    %last = scf.while (%bytes = %min) : (i64) -> i64 {
      %more = arith.cmpi sle, %bytes, %max : i64
      scf.condition(%more) %bytes : i64
    } do {
    ^bb0(%bytes: i64):
      // As many copies as fill a batch of `batch` bytes, at least one.
      %fit = arith.divsi %batch, %bytes : i64
      %capped = arith.minsi %fit, %max_copies : i64
      %copies = arith.maxsi %capped, %c1 : i64
      func.call @run_size(%sample_tag, %kind, %bytes, %copies, %warmup, %samples, %timer)
          : (index, index, i64, i64, i64, i64, !llvm.ptr) -> ()
      %next = arith.muli %bytes, %c2 : i64
      scf.yield %next : i64
    }
    %c0 = arith.constant 0 : i64
    %any_small = arith.cmpi sgt, %small_copies, %c0 : i64
    scf.if %any_small {
      func.call @run_size(%small_tag, %kind, %small, %small_copies, %warmup, %samples, %timer)
          : (index, index, i64, i64, i64, i64, !llvm.ptr) -> ()
    }
    func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()
    return
  }

  // One size: allocate and fill both sides, warm up, time the samples,
  // check the destination, free.
  func.func @run_size(%tag: index, %kind: index, %bytes: i64, %copies: i64,
                      %warmup: i64, %samples: i64, %timer: !llvm.ptr) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : i64
    %elements = arith.divsi %bytes, %c8 : i64
    %n = arith.index_cast %elements : i64 to index
    // Kinds 2, 3 and 4 read device memory; 0, 1 and 4 write it; 1 and 3
    // register their host side.
    %src_on_device = arith.cmpi uge, %kind, %c2 : index
    %is_d2h = arith.cmpi ult, %kind, %c4 : index
    %is_d2d = arith.cmpi eq, %kind, %c4 : index
    %dst_on_device = arith.cmpi ult, %kind, %c2 : index
    %dst_device = arith.ori %dst_on_device, %is_d2d : i1
    %kind_i = arith.index_cast %kind : index to i64
    %one = arith.constant 1 : i64
    %odd = arith.andi %kind_i, %one : i64
    %odd_kind = arith.cmpi eq, %odd, %one : i64
    %pinned = arith.andi %odd_kind, %is_d2h : i1

    %src = func.call @allocate(%src_on_device, %pinned, %n) : (i1, i1, index) -> memref<?xi64>
    %dst = func.call @allocate(%dst_device, %pinned, %n) : (i1, i1, index) -> memref<?xi64>
    // The source holds bytes + i at element i; the destination -1, which no
    // source element holds.
    %minus_one = arith.constant -1 : i64
    %zero = arith.constant 0 : i64
    func.call @fill(%src, %src_on_device, %n, %bytes, %one) : (memref<?xi64>, i1, index, i64, i64) -> ()
    func.call @fill(%dst, %dst_device, %n, %minus_one, %zero) : (memref<?xi64>, i1, index, i64, i64) -> ()

    %copies_n = arith.index_cast %copies : i64 to index
    %warmup_n = arith.index_cast %warmup : i64 to index
    %samples_n = arith.index_cast %samples : i64 to index
    scf.for %w = %c0 to %warmup_n step %c1 {
      %ns, %host_ns = func.call @batch(%dst, %src, %copies_n, %timer)
          : (memref<?xi64>, memref<?xi64>, index, !llvm.ptr) -> (i64, i64)
    }
    scf.for %s = %c0 to %samples_n step %c1 {
      %ns, %host_ns = func.call @batch(%dst, %src, %copies_n, %timer)
          : (memref<?xi64>, memref<?xi64>, index, !llvm.ptr) -> (i64, i64)
      scf.index_switch %tag
      case 0 {
        vector.print str "sample "
        scf.yield
      }
      default {
        vector.print str "small "
        scf.yield
      }
      func.call @print_kind(%kind) : (index) -> ()
      vector.print %bytes : i64 punctuation <no_punctuation>
      vector.print str " "
      vector.print %copies : i64 punctuation <no_punctuation>
      vector.print str " "
      vector.print %ns : i64 punctuation <no_punctuation>
      vector.print str " "
      vector.print %host_ns : i64
    }

    %wrong = func.call @count_wrong(%dst, %dst_device, %n, %bytes) : (memref<?xi64>, i1, index, i64) -> i64
    vector.print str "check "
    func.call @print_kind(%kind) : (index) -> ()
    vector.print %bytes : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %wrong : i64
    func.call @release(%src, %src_on_device, %pinned) : (memref<?xi64>, i1, i1) -> ()
    func.call @release(%dst, %dst_device, %pinned) : (memref<?xi64>, i1, i1) -> ()
    return
  }

  // One batch: `copies` asynchronous copies of `src` into `dst` on one new
  // stream, between the timer's points. Returns the batch's time where the
  // copies ran, and the host time spent enqueueing them, in nanoseconds.
  //
  // An untimed copy goes first and keeps the stream busy while the batch is
  // enqueued, so that the batch's copies run back to back instead of each
  // waiting for the program to enqueue it: what nvbandwidth's spinning
  // kernel does ahead of its timed copies.
  func.func @batch(%dst: memref<?xi64>, %src: memref<?xi64>, %copies: index,
                   %timer: !llvm.ptr) -> (i64, i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %stream = gpu.wait async
    %t0 = gpu.memcpy async [%stream] %dst, %src : memref<?xi64>, memref<?xi64>
    func.call @mgpuTimerStart(%timer, %t0) : (!llvm.ptr, !gpu.async.token) -> ()
    %h0 = func.call @rtclock() : () -> f64
    %tn = scf.for %i = %c0 to %copies step %c1 iter_args(%t = %t0) -> !gpu.async.token {
      %next = gpu.memcpy async [%t] %dst, %src : memref<?xi64>, memref<?xi64>
      scf.yield %next : !gpu.async.token
    }
    %h1 = func.call @rtclock() : () -> f64
    func.call @mgpuTimerStop(%timer, %tn) : (!llvm.ptr, !gpu.async.token) -> ()
    gpu.wait [%tn]
    %ns = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
    %seconds = arith.subf %h1, %h0 : f64
    %giga = arith.constant 1.0e9 : f64
    %host = arith.mulf %seconds, %giga : f64
    %host_ns = arith.fptosi %host : f64 to i64
    return %ns, %host_ns : i64, i64
  }

  func.func @print_kind(%kind: index) {
    scf.index_switch %kind
    case 0 {
      vector.print str "h2d-pageable "
      scf.yield
    }
    case 1 {
      vector.print str "h2d-pinned "
      scf.yield
    }
    case 2 {
      vector.print str "d2h-pageable "
      scf.yield
    }
    case 3 {
      vector.print str "d2h-pinned "
      scf.yield
    }
    default {
      vector.print str "d2d "
      scf.yield
    }
    return
  }

  // `n` elements of device memory, or of host memory registered when
  // `pinned`.
  func.func @allocate(%on_device: i1, %pinned: i1, %n: index) -> memref<?xi64> {
    %m = scf.if %on_device -> memref<?xi64> {
      %d = gpu.alloc (%n) : memref<?xi64>
      scf.yield %d : memref<?xi64>
    } else {
      %h = memref.alloc(%n) : memref<?xi64>
      scf.if %pinned {
        %u = memref.cast %h : memref<?xi64> to memref<*xi64>
        gpu.host_register %u : memref<*xi64>
      }
      scf.yield %h : memref<?xi64>
    }
    return %m : memref<?xi64>
  }

  func.func @release(%m: memref<?xi64>, %on_device: i1, %pinned: i1) {
    scf.if %on_device {
      gpu.dealloc %m : memref<?xi64>
    } else {
      scf.if %pinned {
        %u = memref.cast %m : memref<?xi64> to memref<*xi64>
        gpu.host_unregister %u : memref<*xi64>
      }
      memref.dealloc %m : memref<?xi64>
    }
    return
  }

  // Element i of host memory `m` becomes first + i * step.
  func.func @fill_host(%m: memref<?xi64>, %n: index, %first: i64, %step: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i64
      %offset = arith.muli %ii, %step : i64
      %v = arith.addi %first, %offset : i64
      memref.store %v, %m[%i] : memref<?xi64>
    }
    return
  }

  // Fills `m` as fill_host does, through a host buffer if it is on the
  // device; this also touches every page before the timed copies.
  func.func @fill(%m: memref<?xi64>, %on_device: i1, %n: index, %first: i64, %step: i64) {
    scf.if %on_device {
      %staging = memref.alloc(%n) : memref<?xi64>
      func.call @fill_host(%staging, %n, %first, %step) : (memref<?xi64>, index, i64, i64) -> ()
      gpu.memcpy %m, %staging : memref<?xi64>, memref<?xi64>
      memref.dealloc %staging : memref<?xi64>
    } else {
      func.call @fill_host(%m, %n, %first, %step) : (memref<?xi64>, index, i64, i64) -> ()
    }
    return
  }

  // How many elements of host memory `m` differ from first + i.
  func.func @count_wrong_host(%m: memref<?xi64>, %n: index, %first: i64) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i64
    %wrong = scf.for %i = %c0 to %n step %c1 iter_args(%count = %zero) -> i64 {
      %v = memref.load %m[%i] : memref<?xi64>
      %ii = arith.index_cast %i : index to i64
      %expected = arith.addi %first, %ii : i64
      %ne = arith.cmpi ne, %v, %expected : i64
      %add = arith.extui %ne : i1 to i64
      %next = arith.addi %count, %add : i64
      scf.yield %next : i64
    }
    return %wrong : i64
  }

  func.func @count_wrong(%m: memref<?xi64>, %on_device: i1, %n: index, %first: i64) -> i64 {
    %wrong = scf.if %on_device -> i64 {
      %staging = memref.alloc(%n) : memref<?xi64>
      gpu.memcpy %staging, %m : memref<?xi64>, memref<?xi64>
      %w = func.call @count_wrong_host(%staging, %n, %first) : (memref<?xi64>, index, i64) -> i64
      memref.dealloc %staging : memref<?xi64>
      scf.yield %w : i64
    } else {
      %w = func.call @count_wrong_host(%m, %n, %first) : (memref<?xi64>, index, i64) -> i64
      scf.yield %w : i64
    }
    return %wrong : i64
  }
}
