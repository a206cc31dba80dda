// Times a host-to-device copy with the timers of gpu-runner's runtime
// (wrappers/MgpuAbi.def, mgpuTimer*). Start and stop are recorded on the
// copy's stream, so the time is what the copy took where it ran (on a GPU:
// between two CUDA/HIP events), not how long the call took to enqueue it.
// Then the data is copied back and checked.
//
//   scripts/run examples/timed-copy.mlir
//
// prints (the figures vary)
//
//   copied 67108864 bytes in 12.3456 ms: 5.43 GB/s
//   check: 0 wrong elements

// The timer functions are ordinary external functions. A token passed to
// one is its stream; for the synchronous form pass a null !llvm.ptr
// (llvm.mlir.zero) and declare that parameter as !llvm.ptr.
func.func private @mgpuTimerCreate() -> !llvm.ptr
func.func private @mgpuTimerDestroy(!llvm.ptr)
func.func private @mgpuTimerStart(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerStop(!llvm.ptr, !gpu.async.token)
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // 2^24 i32 elements: 64 MiB.
  %n = arith.constant 16777216 : index
  %host = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %host[%i] : memref<?xi32>
  }
  %dev = gpu.alloc (%n) : memref<?xi32>
  // Touch the device buffer once, so that the timed copy does not also pay
  // for first-touch page faults (host backend) or lazy allocation.
  %zero = arith.constant 0 : i32
  gpu.memset %dev, %zero : memref<?xi32>, i32

  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  %t0 = gpu.wait async
  func.call @mgpuTimerStart(%timer, %t0) : (!llvm.ptr, !gpu.async.token) -> ()
  %t1 = gpu.memcpy async [%t0] %dev, %host : memref<?xi32>, memref<?xi32>
  func.call @mgpuTimerStop(%timer, %t1) : (!llvm.ptr, !gpu.async.token) -> ()
  gpu.wait [%t1]
  // Blocks until the stop point is reached.
  %ns = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()

  %bytes = arith.constant 67108864 : i64
  %nsf = arith.sitofp %ns : i64 to f64
  %bytesf = arith.sitofp %bytes : i64 to f64
  %million = arith.constant 1.0e6 : f64
  %ms = arith.divf %nsf, %million : f64
  // bytes per nanosecond is GB/s, with GB = 1e9 bytes.
  %gbps = arith.divf %bytesf, %nsf : f64
  vector.print str "copied "
  vector.print %bytes : i64 punctuation <no_punctuation>
  vector.print str " bytes in "
  vector.print %ms : f64 punctuation <no_punctuation>
  vector.print str " ms: "
  vector.print %gbps : f64 punctuation <no_punctuation>
  vector.print str " GB/s\n"

  %back = memref.alloc(%n) : memref<?xi32>
  gpu.memcpy %back, %dev : memref<?xi32>, memref<?xi32>
  %c0i = arith.constant 0 : i64
  %c1i = arith.constant 1 : i64
  %wrong = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0i) -> i64 {
    %v = memref.load %back[%i] : memref<?xi32>
    %expected = arith.index_cast %i : index to i32
    %ok = arith.cmpi eq, %v, %expected : i32
    %add = arith.select %ok, %c0i, %c1i : i64
    %next = arith.addi %count, %add : i64
    scf.yield %next : i64
  }
  vector.print str "check: "
  vector.print %wrong : i64 punctuation <no_punctuation>
  vector.print str " wrong elements\n"
  gpu.dealloc %dev : memref<?xi32>
  memref.dealloc %host : memref<?xi32>
  memref.dealloc %back : memref<?xi32>
  return
}
