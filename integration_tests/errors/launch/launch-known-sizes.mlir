// A launch of a kernel that declares known_block_size or known_grid_size
// with other sizes is an error at the launch, on every backend: the kernel
// was compiled for those sizes (CUDA: .maxntid, and a GPU refuses a larger
// block), and the host backend would otherwise run it. A launch of the
// declared sizes runs.
// RUN: %gpu-runner %s | FileCheck %s --check-prefix=RIGHT
// RUN: %expect-exit-1 %gpu-runner -e wrong_block %s 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: %expect-exit-1 %gpu-runner -e wrong_grid %s 2>&1 | FileCheck %s --check-prefix=GRID

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sized(%out: memref<2x64xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>,
                    known_grid_size = array<i32: 2, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %out[%bid, %tid] : memref<2x64xi32>
      gpu.return
    }
  }

  func.func @launch(%gx: index, %bx: index) {
    %c1 = arith.constant 1 : index
    %out = gpu.alloc () : memref<2x64xi32>
    // BLOCK: launch-known-sizes.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: the block size is not (64, 1, 1), the known_block_size of kernel 'sized', for which it was compiled
    // GRID: launch-known-sizes.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: the grid size is not (2, 1, 1), the known_grid_size of kernel 'sized', for which it was compiled
    gpu.launch_func @kernels::@sized blocks in (%gx, %c1, %c1)
        threads in (%bx, %c1, %c1) args(%out : memref<2x64xi32>)
    %host = memref.alloc() : memref<2x64xi32>
    gpu.memcpy %host, %out : memref<2x64xi32>, memref<2x64xi32>
    gpu.dealloc %out : memref<2x64xi32>
    %c0 = arith.constant 0 : index
    %c63 = arith.constant 63 : index
    %last = memref.load %host[%c1, %c63] : memref<2x64xi32>
    vector.print %last : i32
    memref.dealloc %host : memref<2x64xi32>
    return
  }

  // RIGHT: 63
  func.func @main() {
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    call @launch(%c2, %c64) : (index, index) -> ()
    return
  }

  func.func @wrong_block() {
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    call @launch(%c2, %c32) : (index, index) -> ()
    return
  }

  func.func @wrong_grid() {
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    call @launch(%c3, %c64) : (index, index) -> ()
    return
  }
}
