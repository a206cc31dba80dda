// y = a * x + y over 2^24 floats, 256 threads a block: a kernel without
// barriers, whose threads the host backend runs as a vectorizable loop.
// Prints the seconds of each timed launch (after warm-up) and a check.
//
// @main runs 2 warm-up launches and 10 timed ones; @bench takes the two
// counts (gpu-runner-host -e bench --input=i64=W --input=i64=R ...).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xi : f32
      %s = arith.addf %p, %yi : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
  func.func private @printNewline()

  func.func @main() {
    %warmup = arith.constant 2 : i64
    %runs = arith.constant 10 : i64
    func.call @bench(%warmup, %runs) : (i64, i64) -> ()
    return
  }

  func.func @bench(%warmup64: i64, %runs64: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 16777216 : index
    %block = arith.constant 256 : index
    %blocks = arith.divui %n, %block : index
    %warmup = arith.index_cast %warmup64 : i64 to index
    %runs = arith.index_cast %runs64 : i64 to index
    %x = gpu.alloc (%n) : memref<?xf32>
    %y = gpu.alloc (%n) : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %a = arith.constant 0.5 : f32
    gpu.memset %x, %one : memref<?xf32>, f32
    gpu.memset %y, %zero : memref<?xf32>, f32
    %total = arith.addi %warmup, %runs : index
    scf.for %r = %c0 to %total step %c1 {
      %t0 = func.call @rtclock() : () -> f64
      gpu.launch_func @kernels::@saxpy blocks in (%blocks, %c1, %c1) threads in (%block, %c1, %c1)
          args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
      %t1 = func.call @rtclock() : () -> f64
      %timed = arith.cmpi uge, %r, %warmup : index
      scf.if %timed {
        %dt = arith.subf %t1, %t0 : f64
        func.call @printF64(%dt) : (f64) -> ()
        func.call @printNewline() : () -> ()
      }
    }
    // Every element is 0.5 * (warm-up + runs): 6 for @main.
    %h = memref.alloc() : memref<1xf32>
    %last = arith.subi %n, %c1 : index
    %tail = memref.subview %y[%last] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
    gpu.memcpy %h, %tail : memref<1xf32>, memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %h[%c0] : memref<1xf32>
    %v64 = arith.extf %v : f32 to f64
    func.call @printF64(%v64) : (f64) -> ()
    func.call @printNewline() : () -> ()
    gpu.dealloc %x : memref<?xf32>
    gpu.dealloc %y : memref<?xf32>
    return
  }
}
