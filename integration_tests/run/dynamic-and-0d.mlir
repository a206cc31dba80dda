// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// Copies of a dynamically shaped 3x5 memref and of 0-d memrefs.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %host = memref.alloc(%c3) : memref<?x5xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %k = affine.apply affine_map<(i, j) -> (i * 5 + j)>(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %v = arith.sitofp %ki : i32 to f32
      memref.store %v, %host[%i, %j] : memref<?x5xf32>
    }
  }
  %dev = gpu.alloc (%c3) : memref<?x5xf32>
  gpu.memcpy %dev, %host : memref<?x5xf32>, memref<?x5xf32>
  %back = memref.alloc(%c3) : memref<?x5xf32>
  gpu.memcpy %back, %dev : memref<?x5xf32>, memref<?x5xf32>
  // CHECK:      rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data =
  // CHECK-NEXT: {{\[}}[0,   1,   2,   3,   4],
  // CHECK-NEXT:  [5,   6,   7,   8,   9],
  // CHECK-NEXT:  [10,   11,   12,   13,   14]]
  %u = memref.cast %back : memref<?x5xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  gpu.dealloc %dev : memref<?x5xf32>

  %scalar = memref.alloc() : memref<f32>
  %answer = arith.constant 42.5 : f32
  memref.store %answer, %scalar[] : memref<f32>
  %dscalar = gpu.alloc () : memref<f32>
  gpu.memcpy %dscalar, %scalar : memref<f32>, memref<f32>
  %bscalar = memref.alloc() : memref<f32>
  gpu.memcpy %bscalar, %dscalar : memref<f32>, memref<f32>
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [42.5]
  %us = memref.cast %bscalar : memref<f32> to memref<*xf32>
  call @printMemrefF32(%us) : (memref<*xf32>) -> ()
  gpu.dealloc %dscalar : memref<f32>
  return
}
