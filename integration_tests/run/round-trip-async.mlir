// RUN: %gpu-runner %s | FileCheck %s

// A round trip through device memory in memory space 1, every op async on the
// one stream of a `gpu.wait async`.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %src = memref.alloc() : memref<8xf32>
  %dst = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %f : f32
    memref.store %v, %src[%i] : memref<8xf32>
    memref.store %zero, %dst[%i] : memref<8xf32>
  }

  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] () : memref<8xf32, 1>
  %t2 = gpu.memcpy async [%t1] %dev, %src : memref<8xf32, 1>, memref<8xf32>
  %t3 = gpu.memcpy async [%t2] %dst, %dev : memref<8xf32>, memref<8xf32, 1>
  %t4 = gpu.dealloc async [%t3] %dev : memref<8xf32, 1>
  gpu.wait [%t4]

  // CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
  // CHECK-NEXT: [0,  1,  4,  9,  16,  25,  36,  49]
  %u = memref.cast %dst : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %src : memref<8xf32>
  memref.dealloc %dst : memref<8xf32>
  return
}
