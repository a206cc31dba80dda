// RUN: %gpu-runner %s | FileCheck %s

// A kernel launched in a loop inside an async.execute body, between copies
// in and out: each round adds the round's number to every element on the
// device. The loop becomes blocks, so the body's ops are outlined into a
// function it calls (gpu-runner-outline-async-bodies); the launches keep
// their order on the region's stream.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %host = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %host[%i] : memref<4xi32>
  }
  %t = async.execute {
    %dev = gpu.alloc () : memref<4xi32>
    gpu.memcpy %dev, %host : memref<4xi32>, memref<4xi32>
    scf.for %round = %c1 to %c4 step %c1 {
      %add = arith.index_cast %round : index to i32
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
        %v = memref.load %dev[%tx] : memref<4xi32>
        %w = arith.addi %v, %add : i32
        memref.store %w, %dev[%tx] : memref<4xi32>
        gpu.terminator
      }
    }
    gpu.memcpy %host, %dev : memref<4xi32>, memref<4xi32>
    gpu.dealloc %dev : memref<4xi32>
    async.yield
  }
  async.await %t : !async.token
  // 1 + 2 + 3 added to 0, 1, 2, 3.
  // CHECK: [6,  7,  8,  9]
  %print = memref.cast %host : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%print) : (memref<*xi32>) -> ()
  memref.dealloc %host : memref<4xi32>
  return
}
