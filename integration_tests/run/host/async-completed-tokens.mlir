// RUN: %gpu-runner %s | FileCheck %s

// Tokens are values (run/tokens-after-wait.mlir) across async.execute
// regions too: a token whose stream a gpu.wait released may be yielded, be
// captured by a region, and be used by several ops and several regions; an
// event made at an async.yield stays valid after its first use.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c4 = arith.constant 4 : index
  %five = arith.constant 5 : i32
  %six = arith.constant 6 : i32
  %dev = gpu.alloc (%c4) : memref<?xi32>
  %dev2 = gpu.alloc (%c4) : memref<?xi32>
  %h1 = memref.alloc(%c4) : memref<?xi32>
  %h2 = memref.alloc(%c4) : memref<?xi32>
  %h3 = memref.alloc(%c4) : memref<?xi32>
  %u1 = memref.cast %h1 : memref<?xi32> to memref<*xi32>
  %u2 = memref.cast %h2 : memref<?xi32> to memref<*xi32>
  %u3 = memref.cast %h3 : memref<?xi32> to memref<*xi32>

  // A region waits for its own token, then yields it: completed.
  %a, %ta = async.execute -> !async.value<!gpu.async.token> {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %dev, %five : memref<?xi32>, i32
    gpu.wait [%t1]
    async.yield %t1 : !gpu.async.token
  }
  // Two regions use that token, one of them twice; the second use of the
  // event it arrives as comes after the first released it.
  %b, %tb = async.execute (%ta as %t : !async.value<!gpu.async.token>)
      -> !async.value<!gpu.async.token> {
    %t1 = gpu.memcpy async [%t] %h1, %dev : memref<?xi32>, memref<?xi32>
    %t2 = gpu.memset async [%t] %dev2, %six : memref<?xi32>, i32
    %t3 = gpu.wait async [%t1, %t2, %t]
    async.yield %t3 : !gpu.async.token
  }
  %c = async.execute (%ta as %t : !async.value<!gpu.async.token>) {
    %t1 = gpu.memcpy async [%t] %h2, %dev : memref<?xi32>, memref<?xi32>
    gpu.wait [%t1, %t]
    async.yield
  }
  async.await %c : !async.token
  %tb2 = async.await %tb : !async.value<!gpu.async.token>
  %tb3 = gpu.memcpy async [%tb2] %h3, %dev2 : memref<?xi32>, memref<?xi32>
  gpu.wait [%tb3, %tb2]
  // CHECK: [5,  5,  5,  5]
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  // CHECK: [5,  5,  5,  5]
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  // CHECK: [6,  6,  6,  6]
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()

  // A token released outside, captured by a region, used there and waited
  // for again.
  %s0 = gpu.wait async
  %s1 = gpu.memset async [%s0] %dev, %six : memref<?xi32>, i32
  gpu.wait [%s1]
  %d = async.execute {
    %t1 = gpu.memcpy async [%s1] %h1, %dev : memref<?xi32>, memref<?xi32>
    gpu.wait [%t1, %s1]
    async.yield
  }
  async.await %d : !async.token
  // CHECK: [6,  6,  6,  6]
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()

  gpu.dealloc %dev : memref<?xi32>
  gpu.dealloc %dev2 : memref<?xi32>
  return
}
