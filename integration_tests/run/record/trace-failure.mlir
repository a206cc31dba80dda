// A run that fails still writes its trace, and prints its statistics: the
// third op here copies past the end of its allocation, which is a runtime
// error that ends the process. The file holds the phases up to the error,
// the two ops before it, and the failing op, marked unfinished; the
// statistics count what was done, not the op that failed.
// It fails on purpose: under --check=all, memcheck reports the view past the
// allocation before the copy runs, and the run ends there instead.
// UNSUPPORTED: checks
//
// RUN: rm -f %t.json
// RUN: not %gpu-runner --trace=%t.json --print-statistics %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: %system-python %S/../Inputs/summarize_trace.py %t.json --phases | FileCheck %s

// ERR:      trace-failure.mlir:[[# @LINE + 22]]:3: error: gpu.memcpy: {{.*}}out of bounds
// ERR-NEXT: statistics:
// ERR-NEXT:   device memory:  peak 64 bytes; 1 allocation, 64 bytes in all
// ERR-NEXT:   copies h2d:     1, 64 bytes
// ERR-NEXT:   copies d2h:     0

// CHECK: track host thread: Run [phase] - unfinished=True
// CHECK: track host thread: gpu.alloc [host] [[# @LINE + 12]] bytes=64
// CHECK-NEXT: track host thread: gpu.memcpy [host] [[# @LINE + 13]] direction=h2d bytes=64
// CHECK-NEXT: track host thread: gpu.memcpy [host] [[# @LINE + 13]] direction=h2d bytes=128 unfinished=True
// CHECK-NOT: track host thread: gpu.dealloc
// CHECK: track null stream (synchronous ops): gpu.memcpy [stream] [[# @LINE + 10]] direction=h2d bytes=64
// The stream never finished the failing copy: it is drawn to the end of
// the run, marked unfinished, or not at all where the stream never began it.
// CHECK-NOT: track null stream (synchronous ops): gpu.memcpy [stream] [[# @LINE + 8]] direction=h2d bytes=128{{$}}

func.func @main() {
  %small = memref.alloc() : memref<16xf32>
  %large = memref.alloc() : memref<32xf32>
  %dev = gpu.alloc () : memref<16xf32>
  %devLarge = memref.reinterpret_cast %dev to offset: [0], sizes: [32], strides: [1] : memref<16xf32> to memref<32xf32>
  gpu.memcpy %dev, %small : memref<16xf32>, memref<16xf32>
  gpu.memcpy %devLarge, %large : memref<32xf32>, memref<32xf32>
  gpu.dealloc %dev : memref<16xf32>
  return
}
