// Times a program's own copies, there and back, with the synchronous form
// of gpu-runner's timers (wrappers/MgpuAbi.def, mgpuTimer*): a null pointer
// where examples/timed-copy.mlir passes a stream's token. A synchronous
// start or stop is reached once all work enqueued so far, on every stream,
// is done, as a synchronous gpu op waits; so each time is that of one
// synchronous gpu.memcpy, the way cudaEventRecord on the default stream
// around a cudaMemcpy measures it. Then the copy is checked.
//
//   scripts/run examples/timed-copy-sync.mlir
//
// prints (the times vary)
//
//   to the device: 16777216 bytes in 3.2101 ms
//   back to the host: 16777216 bytes in 3.0411 ms
//   check: 0 wrong elements

// The stream parameter is declared !llvm.ptr, for the null pointer; a
// program uses one form of the timers or the other.
func.func private @mgpuTimerCreate() -> !llvm.ptr
func.func private @mgpuTimerDestroy(!llvm.ptr)
func.func private @mgpuTimerStart(!llvm.ptr, !llvm.ptr)
func.func private @mgpuTimerStop(!llvm.ptr, !llvm.ptr)
func.func private @mgpuTimerElapsedNs(!llvm.ptr) -> i64

// Prints "BYTES bytes in MS ms", after the caller's label.
func.func @report(%ns: i64, %bytes: i64) {
  %nsf = arith.sitofp %ns : i64 to f64
  %million = arith.constant 1.0e6 : f64
  %ms = arith.divf %nsf, %million : f64
  vector.print %bytes : i64 punctuation <no_punctuation>
  vector.print str " bytes in "
  vector.print %ms : f64 punctuation <no_punctuation>
  vector.print str " ms\n"
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // 2^22 i32 elements: 16 MiB.
  %n = arith.constant 4194304 : index
  %bytes = arith.constant 16777216 : i64
  %host = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %host[%i] : memref<?xi32>
  }
  %dev = gpu.alloc (%n) : memref<?xi32>
  %back = memref.alloc(%n) : memref<?xi32>
  // Touch both destinations once, so that the timed copies do not also pay
  // for first-touch page faults.
  %zero = arith.constant 0 : i32
  gpu.memset %dev, %zero : memref<?xi32>, i32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %back[%i] : memref<?xi32>
  }

  %sync = llvm.mlir.zero : !llvm.ptr
  %timer = func.call @mgpuTimerCreate() : () -> !llvm.ptr
  func.call @mgpuTimerStart(%timer, %sync) : (!llvm.ptr, !llvm.ptr) -> ()
  gpu.memcpy %dev, %host : memref<?xi32>, memref<?xi32>
  func.call @mgpuTimerStop(%timer, %sync) : (!llvm.ptr, !llvm.ptr) -> ()
  %there = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  vector.print str "to the device: "
  func.call @report(%there, %bytes) : (i64, i64) -> ()

  // A timer may be started again once it has stopped.
  func.call @mgpuTimerStart(%timer, %sync) : (!llvm.ptr, !llvm.ptr) -> ()
  gpu.memcpy %back, %dev : memref<?xi32>, memref<?xi32>
  func.call @mgpuTimerStop(%timer, %sync) : (!llvm.ptr, !llvm.ptr) -> ()
  %return = func.call @mgpuTimerElapsedNs(%timer) : (!llvm.ptr) -> i64
  vector.print str "back to the host: "
  func.call @report(%return, %bytes) : (i64, i64) -> ()
  func.call @mgpuTimerDestroy(%timer) : (!llvm.ptr) -> ()

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
