// RUN: %gpu-runner %s | FileCheck %s

// An async.execute may name the same token twice among its dependencies,
// and pass the same async value twice among its body operands: the async
// dialect allows both. Each body argument holds the value passed for it,
// so the region below copies the same device buffer out through both %a
// and %b.

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
  %t0, %f0 = async.execute -> !async.value<memref<4xi32>> {
    %dev = gpu.alloc () : memref<4xi32>
    gpu.memcpy %dev, %host : memref<4xi32>, memref<4xi32>
    async.yield %dev : memref<4xi32>
  }
  %left = memref.alloc() : memref<4xi32>
  %right = memref.alloc() : memref<4xi32>
  %t1 = async.execute [%t0, %t0] (
    %f0 as %a : !async.value<memref<4xi32>>,
    %f0 as %b : !async.value<memref<4xi32>>
  ) {
    gpu.memcpy %left, %a : memref<4xi32>, memref<4xi32>
    gpu.memcpy %right, %b : memref<4xi32>, memref<4xi32>
    gpu.dealloc %a : memref<4xi32>
    async.yield
  }
  async.await %t1 : !async.token
  %sum = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    %l = memref.load %left[%i] : memref<4xi32>
    %r = memref.load %right[%i] : memref<4xi32>
    %s = arith.addi %l, %r : i32
    memref.store %s, %sum[%i] : memref<4xi32>
  }
  // CHECK: [0,  2,  4,  6]
  %print = memref.cast %sum : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%print) : (memref<*xi32>) -> ()
  memref.dealloc %host : memref<4xi32>
  memref.dealloc %left : memref<4xi32>
  memref.dealloc %right : memref<4xi32>
  memref.dealloc %sum : memref<4xi32>
  return
}
