// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// A strided window of a host matrix copied to a contiguous device buffer, and
// a stride-2 column selection copied device to device.

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  // host[r][c] = 10 * r + c
  %host = memref.alloc() : memref<4x6xf32>
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %c = %c0 to %c6 step %c1 {
      %k = affine.apply affine_map<(r, c) -> (r * 10 + c)>(%r, %c)
      %ki = arith.index_cast %k : index to i32
      %v = arith.sitofp %ki : i32 to f32
      memref.store %v, %host[%r, %c] : memref<4x6xf32>
    }
  }

  // Rows 1-2, columns 2-4 of the host matrix: not contiguous.
  %window = memref.subview %host[1, 2] [2, 3] [1, 1]
      : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
  %dense = gpu.alloc () : memref<2x3xf32>
  gpu.memcpy %dense, %window : memref<2x3xf32>, memref<2x3xf32, strided<[6, 1], offset: 8>>
  %out1 = memref.alloc() : memref<2x3xf32>
  gpu.memcpy %out1, %dense : memref<2x3xf32>, memref<2x3xf32>
  // CHECK:      sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[12,   13,   14],
  // CHECK-NEXT:  [22,   23,   24]]
  %u1 = memref.cast %out1 : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()

  // Columns 0, 2 and 4 of the whole matrix, device to device.
  %matrix = gpu.alloc () : memref<4x6xf32>
  gpu.memcpy %matrix, %host : memref<4x6xf32>, memref<4x6xf32>
  %even = memref.subview %matrix[0, 0] [4, 3] [1, 2]
      : memref<4x6xf32> to memref<4x3xf32, strided<[6, 2]>>
  %columns = gpu.alloc () : memref<4x3xf32>
  gpu.memcpy %columns, %even : memref<4x3xf32>, memref<4x3xf32, strided<[6, 2]>>
  %out2 = memref.alloc() : memref<4x3xf32>
  gpu.memcpy %out2, %columns : memref<4x3xf32>, memref<4x3xf32>
  // CHECK:      sizes = [4, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[0,   2,   4],
  // CHECK-NEXT:  [10,   12,   14],
  // CHECK-NEXT:  [20,   22,   24],
  // CHECK-NEXT:  [30,   32,   34]]
  %u2 = memref.cast %out2 : memref<4x3xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

  gpu.dealloc %dense : memref<2x3xf32>
  gpu.dealloc %matrix : memref<4x6xf32>
  gpu.dealloc %columns : memref<4x3xf32>
  return
}
