// A view that claims more than its allocation holds: the indices are within
// the view's shape, so --check-bounds checks the element against the device
// allocation table and reports where the allocation was made. The view is
// made from the allocation's base buffer, which names the whole buffer: a
// view made from the memref<10xf32> itself would be refused at its
// memref.reinterpret_cast already (check-bounds-host.mlir).
// RUN: %expect-exit-1 %gpu-runner %s --check-bounds 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<16xf32>) kernel {
      %tid = gpu.thread_id x
      %two = arith.constant 2.0 : f32
      // CHECK: check-bounds-allocation.mlir:[[# @LINE + 1]]:12: error: memcheck: memref.load: invalid load in kernel 'scale', block (0, 0, 0), thread (10, 0, 0): out of bounds: the load spans bytes [40, 44) of the 40-byte allocation made by gpu.alloc at {{.*}}check-bounds-allocation.mlir:[[# @LINE + 11]]:12: 4 bytes past its end
      %v = memref.load %m[%tid] : memref<16xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %m[%tid] : memref<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %dev = gpu.alloc () : memref<10xf32>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %dev
        : memref<10xf32> -> memref<f32>, index, index, index
    %view = memref.reinterpret_cast %base to offset: [0], sizes: [16], strides: [1]
        : memref<f32> to memref<16xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%view : memref<16xf32>)
    gpu.dealloc %dev : memref<10xf32>
    return
  }
}
