// RUN: %gpu-runner %s | FileCheck %s

// 2-D vector transfers and a subview of dynamic offset in a kernel, on a
// memref of dynamic shape: each thread t reads the 2 x 3 window at row t,
// column t of m (padding past its edge) and writes it transposed, and
// reads its row's element at column 1 through a subview.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @windows(%m: memref<?x?xf32>, %out: memref<?x3x2xf32>, %col: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %pad = arith.constant -1.0 : f32
      %w = vector.transfer_read %m[%t, %t], %pad : memref<?x?xf32>, vector<2x3xf32>
      %wt = vector.transpose %w, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
      vector.transfer_write %wt, %out[%t, %c0, %c0] : vector<3x2xf32>, memref<?x3x2xf32>
      %n = memref.dim %m, %c1 : memref<?x?xf32>
      %row = memref.subview %m[%t, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
      %x = memref.load %row[%c1] : memref<?xf32, strided<[1], offset: ?>>
      memref.store %x, %col[%t] : memref<?xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    // m[i][j] = 10 i + j, 3 x 4.
    %h = memref.alloc(%c3, %c4) : memref<?x?xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %ten = arith.constant 10 : index
        %ti = arith.muli %i, %ten : index
        %k = arith.addi %ti, %j : index
        %ki = arith.index_cast %k : index to i32
        %f = arith.sitofp %ki : i32 to f32
        memref.store %f, %h[%i, %j] : memref<?x?xf32>
      }
    }
    %m = gpu.alloc (%c3, %c4) : memref<?x?xf32>
    gpu.memcpy %m, %h : memref<?x?xf32>, memref<?x?xf32>
    %out = gpu.alloc (%c3) : memref<?x3x2xf32>
    %col = gpu.alloc (%c3) : memref<?xf32>
    gpu.launch_func @kernels::@windows blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%m : memref<?x?xf32>, %out : memref<?x3x2xf32>, %col : memref<?xf32>)
    %ho = memref.alloc(%c3) : memref<?x3x2xf32>
    gpu.memcpy %ho, %out : memref<?x3x2xf32>, memref<?x3x2xf32>
    // CHECK:      {{\[}}{{\[}}[0,   10],
    // CHECK-NEXT:   [1,   11],
    // CHECK-NEXT:   [2,   12]],
    // CHECK-NEXT:  {{\[}}[11,   21],
    // CHECK-NEXT:   [12,   22],
    // CHECK-NEXT:   [13,   23]],
    // CHECK-NEXT:  {{\[}}[22,   -1],
    // CHECK-NEXT:   [23,   -1],
    // CHECK-NEXT:   [-1,   -1]]]
    %u = memref.cast %ho : memref<?x3x2xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %hc = memref.alloc(%c3) : memref<?xf32>
    gpu.memcpy %hc, %col : memref<?xf32>, memref<?xf32>
    // CHECK: [1,  11,  21]
    %uc = memref.cast %hc : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    gpu.dealloc %col : memref<?xf32>
    gpu.dealloc %out : memref<?x3x2xf32>
    gpu.dealloc %m : memref<?x?xf32>
    return
  }
}
