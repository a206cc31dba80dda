// --trace writes the run's timeline in Chrome's trace event format; the
// file is read back with Python's json (Inputs/summarize_trace.py checks
// its shape and prints one line per event and per flow).
//
// Two streams: stream 1 copies %x in and scales it; stream 2 fills %y, then
// a copy waits for both streams' tokens ([%scaled, %filled]) and adds the
// scaled %x into %y's place, and a second kernel runs after it. Each op is
// on its stream's track in token order, the host thread has the calls,
// copies carry their bytes and direction, launches their kernel's name, and
// the token that orders stream 2's copy after stream 1's kernel is a flow
// from one to the other, which the stream's times honour.
//
// RUN: rm -f %t.json
// RUN: %gpu-runner --trace=%t.json %s | FileCheck %s --check-prefix=OUT
// RUN: %system-python %S/../Inputs/summarize_trace.py %t.json | FileCheck %s
// The runner's phases are on the host thread's track, around the ops.
// RUN: %system-python %S/../Inputs/summarize_trace.py %t.json --phases | FileCheck %s --check-prefix=PHASES

// OUT: 12

// The host thread makes the calls, in program order.
// CHECK:      track host thread: gpu.alloc [host] [[# @LINE + 62]] bytes=1024
// CHECK-NEXT: track host thread: gpu.alloc [host] [[# @LINE + 62]] bytes=1024
// CHECK-NEXT: track host thread: gpu.memcpy [host] [[# @LINE + 63]] direction=h2d bytes=1024
// CHECK-NEXT: track host thread: gpu.launch_func [host] [[# @LINE + 63]] kernel=scale grid=[2, 1, 1] block=[128, 1, 1]
// CHECK-NEXT: track host thread: gpu.memset [host] [[# @LINE + 65]] bytes=1024
// CHECK-NEXT: track host thread: gpu.memcpy [host] [[# @LINE + 67]] direction=d2d bytes=512
// CHECK-NEXT: track host thread: gpu.launch_func [host] [[# @LINE + 67]] kernel=scale grid=[1, 1, 1] block=[128, 1, 1]
// CHECK-NEXT: track host thread: gpu.wait [host] [[# @LINE + 67]]
// CHECK-NEXT: track host thread: gpu.wait [host] [[# @LINE + 66]]
// CHECK-NEXT: track host thread: gpu.memcpy [host] [[# @LINE + 66]] direction=d2h bytes=1024
// CHECK-NEXT: track host thread: gpu.dealloc [host] [[# @LINE + 66]]
// CHECK-NEXT: track host thread: gpu.dealloc [host] [[# @LINE + 66]]
// Each stream runs its ops in token order; on a stream, a kernel goes by
// its name.
// CHECK-NEXT: track stream 1: gpu.memcpy [stream] [[# @LINE + 51]] direction=h2d bytes=1024
// CHECK-NEXT: track stream 1: scale [stream] [[# @LINE + 51]] kernel=scale
// CHECK-NEXT: track stream 2: gpu.memset [stream] [[# @LINE + 53]] bytes=1024
// CHECK-NEXT: track stream 2: gpu.memcpy [stream] [[# @LINE + 55]] direction=d2d bytes=512
// CHECK-NEXT: track stream 2: scale [stream] [[# @LINE + 55]] kernel=scale
// The synchronous copy runs in the null stream's order.
// CHECK-NEXT: track null stream (synchronous ops): gpu.memcpy [stream] [[# @LINE + 55]] direction=d2h bytes=1024
// The joined copy begins after stream 1's kernel ends; the host's wait
// returns after both streams' last ops.
// CHECK-NEXT: flow stream 1:scale line [[# @LINE + 43]] -> stream 2:gpu.memcpy line [[# @LINE + 49]] ordered
// CHECK-NEXT: flow stream 2:scale line [[# @LINE + 49]] -> host thread:gpu.wait line [[# @LINE + 50]] ordered
// CHECK-NEXT: flow stream 1:scale line [[# @LINE + 41]] -> host thread:gpu.wait line [[# @LINE + 49]] ordered
// CHECK-NOT:  flow

// PHASES: track host thread: Read input [phase]
// PHASES: track host thread: Compile [phase]
// PHASES: track host thread: JIT link [phase]
// PHASES: track host thread: Run [phase]
// PHASES: track host thread: gpu.alloc [host]
// PHASES: track host thread: Finalization [phase]
// PHASES: track thread {{[0-9]+}}: Parse [phase]
// PHASES: track thread {{[0-9]+}}: Lowering [phase]
// PHASES: track thread {{[0-9]+}}: LLVM code generation [phase]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<256xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %data[%i] : memref<256xf32>
        %two = arith.constant 2.0 : f32
        %w = arith.mulf %v, %two : f32
        memref.store %w, %data[%i] : memref<256xf32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %three = arith.constant 3.0 : f32
    %host = memref.alloc() : memref<256xf32>
    linalg.fill ins(%three : f32) outs(%host : memref<256xf32>)
    %x = gpu.alloc () : memref<256xf32>
    %y = gpu.alloc () : memref<256xf32>
    %s1 = gpu.wait async
    %copied = gpu.memcpy async [%s1] %x, %host : memref<256xf32>, memref<256xf32>
    %scaled = gpu.launch_func async [%copied] @kernels::@scale blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<256xf32>, %c256 : index)
    %s2 = gpu.wait async
    %one = arith.constant 1.0 : f32
    %filled = gpu.memset async [%s2] %y, %one : memref<256xf32>, f32
    %xHead = memref.subview %x[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
    %yHead = memref.subview %y[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
    %joined = gpu.memcpy async [%filled, %scaled] %yHead, %xHead : memref<128xf32, strided<[1]>>, memref<128xf32, strided<[1]>>
    %again = gpu.launch_func async [%joined] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%y : memref<256xf32>, %c128 : index)
    gpu.wait [%again, %scaled]
    gpu.memcpy %host, %y : memref<256xf32>, memref<256xf32>
    gpu.dealloc %x : memref<256xf32>
    gpu.dealloc %y : memref<256xf32>
    // 3 * 2 * 2 in the first half.
    %v = memref.load %host[%c0] : memref<256xf32>
    %i = arith.fptosi %v : f32 to i64
    vector.print %i : i64
    memref.dealloc %host : memref<256xf32>
    return
  }
}
