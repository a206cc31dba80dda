// RUN: %gpu-runner %s | FileCheck %s

// The gpu dialect treats !gpu.async.token as a value: the async gpu.wait's
// result "could replace its arguments", so a token may be a dependency again
// after a gpu.wait waited for it (docs/lowering.md, "What a token means at
// run time"). Its work is then complete and the dependency satisfied: the op
// runs on a stream of its own, and waiting for the token again returns at
// once. The same holds for a token whose stream a join (gpu.wait async with
// several tokens) released.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %host = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %host[%i] : memref<4xf32>
  }
  %dev = gpu.alloc () : memref<4xf32, 1>
  %out = memref.alloc() : memref<4xf32>
  %print = memref.cast %out : memref<4xf32> to memref<*xf32>

  // The example of the gpu dialect's tokens: %t1 waited for, then used again.
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %dev, %host : memref<4xf32, 1>, memref<4xf32>
  gpu.wait [%t1]
  %t2 = gpu.memcpy async [%t1] %out, %dev : memref<4xf32>, memref<4xf32, 1>
  gpu.wait [%t2]
  gpu.wait [%t1]
  // CHECK: [0,  1,  2,  3]
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()

  // A completed token in several later ops, alone and next to a live token
  // (first or not), and in an async gpu.wait.
  %nine = arith.constant 9.0 : f32
  %t3 = gpu.memset async [%t1] %dev, %nine : memref<4xf32, 1>, f32
  %t4 = gpu.wait async [%t1]
  %t5 = gpu.memcpy async [%t1, %t3] %out, %dev : memref<4xf32>, memref<4xf32, 1>
  gpu.wait [%t5]
  // CHECK: [9,  9,  9,  9]
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()
  %t6 = gpu.memcpy async [%t4, %t1] %dev, %host : memref<4xf32, 1>, memref<4xf32>
  %t6b = gpu.memcpy async [%t6] %out, %dev : memref<4xf32>, memref<4xf32, 1>
  gpu.wait [%t6b, %t4, %t1]
  // CHECK: [0,  1,  2,  3]
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()

  // A join releases %b's stream; %b is still a dependency, on work that was
  // enqueued, not only on work that is done.
  %seven = arith.constant 7.0 : f32
  %a = gpu.wait async
  %b = gpu.memset async %dev, %seven : memref<4xf32, 1>, f32
  %joined = gpu.wait async [%a, %b]
  %t7 = gpu.memcpy async [%b] %out, %dev : memref<4xf32>, memref<4xf32, 1>
  gpu.wait [%t7]
  gpu.wait [%joined, %b]
  // CHECK: [7,  7,  7,  7]
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()

  // A synchronous op that depends on a completed token runs at once.
  gpu.memcpy [%t7] %dev, %host : memref<4xf32, 1>, memref<4xf32>
  gpu.memcpy [%t7, %b] %out, %dev : memref<4xf32>, memref<4xf32, 1>
  // CHECK: [0,  1,  2,  3]
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()

  // Allocations and frees that depend on a completed token.
  %m, %t8 = gpu.alloc async [%t1] () : memref<4xf32, 1>
  %t9 = gpu.memcpy async [%t8] %m, %host : memref<4xf32, 1>, memref<4xf32>
  gpu.wait [%t9]
  %t10 = gpu.memcpy async [%t9] %out, %m : memref<4xf32>, memref<4xf32, 1>
  %t11 = gpu.dealloc async [%t9, %t10] %m : memref<4xf32, 1>
  gpu.wait [%t11]
  // CHECK: [0,  1,  2,  3]
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()

  gpu.dealloc %dev : memref<4xf32, 1>
  memref.dealloc %out : memref<4xf32>
  memref.dealloc %host : memref<4xf32>
  return
}
