// RUN: %gpu-runner %s | FileCheck %s

// Two regions wait for the same one and copy its result out, each on a stream
// of its own; the program then waits for both.

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c4 = arith.constant 4 : index
  %v = arith.constant 5 : i32
  %dev = gpu.alloc (%c4) : memref<?xi32>
  %h1 = memref.alloc(%c4) : memref<?xi32>
  %h2 = memref.alloc(%c4) : memref<?xi32>
  %a = async.execute {
    gpu.memset %dev, %v : memref<?xi32>, i32
    async.yield
  }
  %b = async.execute [%a] {
    gpu.memcpy %h1, %dev : memref<?xi32>, memref<?xi32>
    async.yield
  }
  %c = async.execute [%a] {
    gpu.memcpy %h2, %dev : memref<?xi32>, memref<?xi32>
    async.yield
  }
  async.await %b : !async.token
  async.await %c : !async.token
  %u1 = memref.cast %h1 : memref<?xi32> to memref<*xi32>
  %u2 = memref.cast %h2 : memref<?xi32> to memref<*xi32>
  // CHECK: [5,  5,  5,  5]
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  // CHECK: [5,  5,  5,  5]
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  gpu.dealloc %dev : memref<?xi32>
  return
}
