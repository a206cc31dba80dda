// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// linalg on memrefs in host code: fill, generic, matmul and copy, checked
// with printMemref, and a device round trip of the result.

#identity = affine_map<(i, j) -> (i, j)>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x3xf32>
  %b = memref.alloc() : memref<3x2xf32>
  %c = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2x3xf32>)
  // b[i][j] = 10 i + j + a[j][i]: index arithmetic in a generic.
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, #identity],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = affine.apply affine_map<(i, j) -> (i * 10 + j)>(%i, %j)
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %v = arith.addf %kf, %x : f32
    linalg.yield %v : f32
  }
  // CHECK:      {{\[}}[1,   2],
  // CHECK-NEXT:  [11,   12],
  // CHECK-NEXT:  [21,   22]]
  %ub = memref.cast %b : memref<3x2xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()

  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x2xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  // Each row of a is ones: every row of c is the column sums of b.
  // CHECK:      {{\[}}[33,   36],
  // CHECK-NEXT:  [33,   36]]
  %uc = memref.cast %c : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()

  // Through device memory and back, then copied with linalg.copy.
  %d = gpu.alloc () : memref<2x2xf32>
  gpu.memcpy %d, %c : memref<2x2xf32>, memref<2x2xf32>
  %back = memref.alloc() : memref<2x2xf32>
  gpu.memcpy %back, %d : memref<2x2xf32>, memref<2x2xf32>
  %copy = memref.alloc() : memref<2x2xf32>
  linalg.copy ins(%back : memref<2x2xf32>) outs(%copy : memref<2x2xf32>)
  // CHECK:      {{\[}}[33,   36],
  // CHECK-NEXT:  [33,   36]]
  %ucopy = memref.cast %copy : memref<2x2xf32> to memref<*xf32>
  call @printMemrefF32(%ucopy) : (memref<*xf32>) -> ()
  gpu.dealloc %d : memref<2x2xf32>
  return
}
