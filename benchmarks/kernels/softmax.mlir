// Row softmax over a 4096 x 1024 matrix of floats, one block of 256 threads a
// row, each thread taking the columns tid, tid + 256, tid + 512, tid + 768:
// the row's maximum (gpu.all_reduce maxnumf), exp(x - max) written out, their
// sum (gpu.all_reduce add), then each output divided by the sum. Prints the
// seconds of each timed launch (after warm-up), then a checksum: the sum of
// out * x over the matrix (each row's mean of x weighted by its softmax).
// Reduction orders differ from the baseline's: compare it with a relative
// tolerance.
//
// @main runs 1 warm-up launch and 5 timed ones; @bench takes the two counts
// (gpu-runner-host -e bench --input=i64=W --input=i64=R softmax.mlir).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // x[r, c] = ((1024 r + c) * 7 mod 23) / 8 - 1: values -1..1.75.
    gpu.func @fill(%x: memref<4096x1024xf32>) kernel {
      %cols = arith.constant 1024 : index
      %row = gpu.block_id x
      %tid = gpu.thread_id x
      %step = gpu.block_dim x
      %c7 = arith.constant 7 : index
      %c23 = arith.constant 23 : index
      %eighth = arith.constant 0.125 : f32
      %one = arith.constant 1.0 : f32
      scf.for %c = %tid to %cols step %step {
        %flat = affine.apply affine_map<(r, c) -> (r * 1024 + c)>(%row, %c)
        %a = arith.muli %flat, %c7 : index
        %k = arith.remui %a, %c23 : index
        %k32 = arith.index_cast %k : index to i32
        %kf = arith.sitofp %k32 : i32 to f32
        %s = arith.mulf %kf, %eighth : f32
        %v = arith.subf %s, %one : f32
        memref.store %v, %x[%row, %c] : memref<4096x1024xf32>
      }
      gpu.return
    }

    gpu.func @softmax(%x: memref<4096x1024xf32>, %y: memref<4096x1024xf32>) kernel {
      %cols = arith.constant 1024 : index
      %row = gpu.block_id x
      %tid = gpu.thread_id x
      %step = gpu.block_dim x
      %lowest = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %local_max = scf.for %c = %tid to %cols step %step iter_args(%m = %lowest) -> f32 {
        %v = memref.load %x[%row, %c] : memref<4096x1024xf32>
        %next = arith.maxnumf %m, %v : f32
        scf.yield %next : f32
      }
      %max = gpu.all_reduce maxnumf %local_max uniform {} : (f32) -> (f32)
      %local_sum = scf.for %c = %tid to %cols step %step iter_args(%s = %zero) -> f32 {
        %v = memref.load %x[%row, %c] : memref<4096x1024xf32>
        %d = arith.subf %v, %max : f32
        %e = math.exp %d : f32
        memref.store %e, %y[%row, %c] : memref<4096x1024xf32>
        %next = arith.addf %s, %e : f32
        scf.yield %next : f32
      }
      %sum = gpu.all_reduce add %local_sum uniform {} : (f32) -> (f32)
      scf.for %c = %tid to %cols step %step {
        %e = memref.load %y[%row, %c] : memref<4096x1024xf32>
        %q = arith.divf %e, %sum : f32
        memref.store %q, %y[%row, %c] : memref<4096x1024xf32>
      }
      gpu.return
    }
  }

  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
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
    %rows = arith.constant 4096 : index
    %cols = arith.constant 1024 : index
    %block = arith.constant 256 : index
    %warmup = arith.index_cast %warmup64 : i64 to index
    %runs = arith.index_cast %runs64 : i64 to index
    %x = gpu.alloc () : memref<4096x1024xf32>
    %y = gpu.alloc () : memref<4096x1024xf32>
    gpu.launch_func @kernels::@fill blocks in (%rows, %c1, %c1) threads in (%block, %c1, %c1)
        args(%x : memref<4096x1024xf32>)
    %total = arith.addi %warmup, %runs : index
    scf.for %r = %c0 to %total step %c1 {
      %t0 = func.call @rtclock() : () -> f64
      gpu.launch_func @kernels::@softmax blocks in (%rows, %c1, %c1) threads in (%block, %c1, %c1)
          args(%x : memref<4096x1024xf32>, %y : memref<4096x1024xf32>)
      %t1 = func.call @rtclock() : () -> f64
      %timed = arith.cmpi uge, %r, %warmup : index
      scf.if %timed {
        %dt = arith.subf %t1, %t0 : f64
        func.call @printF64(%dt) : (f64) -> ()
        func.call @printNewline() : () -> ()
      }
    }
    %hx = memref.alloc() : memref<4096x1024xf32>
    %hy = memref.alloc() : memref<4096x1024xf32>
    gpu.memcpy %hx, %x : memref<4096x1024xf32>, memref<4096x1024xf32>
    gpu.memcpy %hy, %y : memref<4096x1024xf32>, memref<4096x1024xf32>
    %zero = arith.constant 0.0 : f64
    %check = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %zero) -> f64 {
      %row_sum = scf.for %c = %c0 to %cols step %c1 iter_args(%a = %acc) -> f64 {
        %xv = memref.load %hx[%r, %c] : memref<4096x1024xf32>
        %yv = memref.load %hy[%r, %c] : memref<4096x1024xf32>
        %p = arith.mulf %xv, %yv : f32
        %p64 = arith.extf %p : f32 to f64
        %next = arith.addf %a, %p64 : f64
        scf.yield %next : f64
      }
      scf.yield %row_sum : f64
    }
    func.call @printF64(%check) : (f64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %hx : memref<4096x1024xf32>
    memref.dealloc %hy : memref<4096x1024xf32>
    gpu.dealloc %x : memref<4096x1024xf32>
    gpu.dealloc %y : memref<4096x1024xf32>
    return
  }
}
