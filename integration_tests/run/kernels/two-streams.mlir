// RUN: %gpu-runner %s | FileCheck %s

// Two streams, each running copy-in, a kernel and copy-out asynchronously,
// joined at the end; and launches with 0, 1 and 2 dependencies.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<64xf32>, %factor: f32) kernel {
      %i = gpu.global_id x
      %v = memref.load %data[%i] : memref<64xf32>
      %s = arith.mulf %v, %factor : f32
      memref.store %s, %data[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @more_kernels {
    gpu.func @add_both(%a: memref<64xf32>, %b: memref<64xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<64xf32>
      %y = memref.load %b[%i] : memref<64xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %a[%i] : memref<64xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %h1 = memref.alloc() : memref<64xf32>
    %h2 = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h1[%i] : memref<64xf32>
      memref.store %f, %h2[%i] : memref<64xf32>
    }
    %two = arith.constant 2.0 : f32
    %ten = arith.constant 10.0 : f32

    // Stream A: copy in, h1 * 2, copy out.
    %a0 = gpu.wait async
    %d1, %a1 = gpu.alloc async [%a0] () : memref<64xf32>
    %a2 = gpu.memcpy async [%a1] %d1, %h1 : memref<64xf32>, memref<64xf32>
    %a3 = gpu.launch_func async [%a2] @kernels::@scale blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%d1 : memref<64xf32>, %two : f32)
    %a4 = gpu.memcpy async [%a3] %h1, %d1 : memref<64xf32>, memref<64xf32>

    // Stream B: the same with * 10, and a launch without dependencies of
    // its own stream.
    %b0 = gpu.wait async
    %d2, %b1 = gpu.alloc async [%b0] () : memref<64xf32>
    %b2 = gpu.memcpy async [%b1] %d2, %h2 : memref<64xf32>, memref<64xf32>
    %b3 = gpu.launch_func async [%b2] @kernels::@scale blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%d2 : memref<64xf32>, %ten : f32)
    %b4 = gpu.memcpy async [%b3] %h2, %d2 : memref<64xf32>, memref<64xf32>

    // A launch that depends on both streams: d1 += d2 (copy-outs done too).
    %j = gpu.launch_func async [%a4, %b4] @more_kernels::@add_both blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%d1 : memref<64xf32>, %d2 : memref<64xf32>)
    gpu.wait [%j]

    // CHECK: [0,  2,  4,  6,  8,  10,
    %u1 = memref.cast %h1 : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    // CHECK: [0,  10,  20,  30,  40,  50,
    %u2 = memref.cast %h2 : memref<64xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

    // An async launch without dependencies, then a synchronous one.
    %t = gpu.launch_func async @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%d1 : memref<64xf32>, %two : f32)
    gpu.wait [%t]
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%d1 : memref<64xf32>, %two : f32)
    gpu.memcpy %h1, %d1 : memref<64xf32>, memref<64xf32>
    // (2i + 10i) * 4 = 48i
    // CHECK: [0,  48,  96,  144,  192,  240,
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    gpu.dealloc %d1 : memref<64xf32>
    gpu.dealloc %d2 : memref<64xf32>
    return
  }
}
