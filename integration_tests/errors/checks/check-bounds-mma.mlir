// --check-bounds checks the matrix loads and stores of gpu.subgroup_mma_*
// ops too: the matrix's first element against the memref's shape, then
// every element from its first to its last (leadDimension elements apart,
// row by row, or column by column when transposed) against the device
// allocation. Each lane checks the whole matrix; the first lane reports.
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e past_the_end %s 2>&1 | FileCheck %s --check-prefix=END --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e outside_the_shape %s 2>&1 | FileCheck %s --check-prefix=SHAPE --implicit-check-not=error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Rows 8 to 23 of a 16x16 matrix: the last 8 rows lie past its end.
    gpu.func @load_low(%m: memref<16x16xf16>, %out: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      // END: check-bounds-mma.mlir:[[# @LINE + 1]]:12: error: memcheck: gpu.subgroup_mma_load_matrix: invalid load in kernel 'load_low', block (0, 0, 0), thread (0, 0, 0): out of bounds: the load spans bytes [256, 768) of the 512-byte allocation made by gpu.alloc at {{.*}}check-bounds-mma.mlir:[[# @LINE + 19]]:10: 256 bytes past its end
      %a = gpu.subgroup_mma_load_matrix %m[%c8, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %a, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }

    gpu.func @store_below(%m: memref<16x16xf16>, %out: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      // SHAPE: check-bounds-mma.mlir:[[# @LINE + 1]]:7: error: memcheck: gpu.subgroup_mma_store_matrix: out-of-bounds store in kernel 'store_below', block (0, 0, 0), thread (0, 0, 0): index 16 of dimension 0 is outside [0, 16), the memref's size there
      gpu.subgroup_mma_store_matrix %a, %out[%c16, %c0] {leadDimension = 16 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func @past_the_end() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<16x16xf16>
    %out = gpu.alloc () : memref<16x16xf16>
    gpu.launch_func @kernels::@load_low blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%m : memref<16x16xf16>, %out : memref<16x16xf16>)
    gpu.dealloc %m : memref<16x16xf16>
    gpu.dealloc %out : memref<16x16xf16>
    return
  }

  func.func @outside_the_shape() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<16x16xf16>
    %out = gpu.alloc () : memref<16x16xf16>
    gpu.launch_func @kernels::@store_below blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%m : memref<16x16xf16>, %out : memref<16x16xf16>)
    gpu.dealloc %m : memref<16x16xf16>
    gpu.dealloc %out : memref<16x16xf16>
    return
  }
}
