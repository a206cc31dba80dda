// A two-stream pipeline, as a CUDA programmer overlaps copies and kernels
// with cudaMemcpyAsync and two cudaStream_t: the input is cut into 4 chunks
// of 1024 floats, and the chunks go in turn to stream A and stream B; on its
// stream each chunk is copied to the device, transformed by a kernel
// (y = 2x + 1) and copied back, so that one stream's copies can run while
// the other's kernel does. In the gpu dialect a stream is a chain of async
// tokens: each op waits for the token before it ([%t]) and gives the next.
// The two chains meet only at the final gpu.wait.
//
// The input is x = 0, 1, ..., 4095, so y = 2x + 1 and the sum of y is
// 4096^2 = 16777216.
//
//   scripts/run examples/two-stream-pipeline.mlir
//
// prints
//
//   sum: 16777216
//   wrong elements: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transform(%data: memref<1024xf32>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %x = memref.load %data[%i] : memref<1024xf32>
      %x2 = arith.mulf %x, %two : f32
      %y = arith.addf %x2, %one : f32
      memref.store %y, %data[%i] : memref<1024xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %n = arith.constant 4096 : index
    %host = memref.alloc() : memref<4x1024xf32>
    scf.for %c = %c0 to %c4 step %c1 {
      scf.for %i = %c0 to %c1024 step %c1 {
        %base = arith.muli %c, %c1024 : index
        %m = arith.addi %base, %i : index
        %mi = arith.index_cast %m : index to i32
        %v = arith.sitofp %mi : i32 to f32
        memref.store %v, %host[%c, %i] : memref<4x1024xf32>
      }
    }

    // cudaStreamCreate twice: each stream starts with a token of its own,
    // and has a device buffer of its own.
    %a0 = gpu.wait async
    %b0 = gpu.wait async
    %bufA, %a1 = gpu.alloc async [%a0] () : memref<1024xf32>
    %bufB, %b1 = gpu.alloc async [%b0] () : memref<1024xf32>
    // Chunks 0 and 2 on stream A, 1 and 3 on stream B.
    %ends:2 = scf.for %pair = %c0 to %c2 step %c1 iter_args(%ta = %a1, %tb = %b1) -> (!gpu.async.token, !gpu.async.token) {
      %first = arith.muli %pair, %c2 : index
      %second = arith.addi %first, %c1 : index
      %chunkA = memref.subview %host[%first, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      %chunkB = memref.subview %host[%second, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
      // cudaMemcpyAsync(bufA, chunkA, bytes, cudaMemcpyHostToDevice, streamA)
      %ta1 = gpu.memcpy async [%ta] %bufA, %chunkA : memref<1024xf32>, memref<1024xf32, strided<[1], offset: ?>>
      %tb1 = gpu.memcpy async [%tb] %bufB, %chunkB : memref<1024xf32>, memref<1024xf32, strided<[1], offset: ?>>
      // transform<<<4, 256, 0, streamA>>>(bufA)
      %ta2 = gpu.launch_func async [%ta1] @kernels::@transform blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%bufA : memref<1024xf32>)
      %tb2 = gpu.launch_func async [%tb1] @kernels::@transform blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
          args(%bufB : memref<1024xf32>)
      // cudaMemcpyAsync(chunkA, bufA, bytes, cudaMemcpyDeviceToHost, streamA)
      %ta3 = gpu.memcpy async [%ta2] %chunkA, %bufA : memref<1024xf32, strided<[1], offset: ?>>, memref<1024xf32>
      %tb3 = gpu.memcpy async [%tb2] %chunkB, %bufB : memref<1024xf32, strided<[1], offset: ?>>, memref<1024xf32>
      scf.yield %ta3, %tb3 : !gpu.async.token, !gpu.async.token
    }
    // cudaStreamSynchronize on both: the host reads the results after this.
    gpu.wait [%ends#0, %ends#1]

    %zero = arith.constant 0.0 : f64
    %none = arith.constant 0 : i32
    %add1 = arith.constant 1 : i32
    %r:2 = scf.for %m = %c0 to %n step %c1 iter_args(%sum = %zero, %wrong = %none) -> (f64, i32) {
      %c = arith.divui %m, %c1024 : index
      %i = arith.remui %m, %c1024 : index
      %y = memref.load %host[%c, %i] : memref<4x1024xf32>
      %m2 = arith.muli %m, %c2 : index
      %e = arith.addi %m2, %c1 : index
      %ei = arith.index_cast %e : index to i32
      %expected = arith.sitofp %ei : i32 to f32
      %same = arith.cmpf oeq, %y, %expected : f32
      %inc = arith.select %same, %none, %add1 : i32
      %w = arith.addi %wrong, %inc : i32
      %y64 = arith.extf %y : f32 to f64
      %s = arith.addf %sum, %y64 : f64
      scf.yield %s, %w : f64, i32
    }
    // Every partial sum is an integer below 2^53: exact in f64.
    %sum = arith.fptosi %r#0 : f64 to i64
    vector.print str "sum: "
    vector.print %sum : i64
    vector.print str "wrong elements: "
    vector.print %r#1 : i32
    gpu.dealloc %bufA : memref<1024xf32>
    gpu.dealloc %bufB : memref<1024xf32>
    memref.dealloc %host : memref<4x1024xf32>
    return
  }
}
