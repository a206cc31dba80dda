// A file of kernels with no host code has no entry point: the error says
// to run a kernel with --launch, and names the kernels, where it used to
// say only "name it with -e".
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// The suggested command runs.
// RUN: %gpu-runner %s --launch=kernels::fill --grid=1 --block=4 --input=4xi32=0 | FileCheck %s --check-prefix=LAUNCH

// CHECK: entry-kernels-only.mlir:[[# @LINE + 1]]:1: error: entry point 'main' not found; the program has kernels but no host code: run one with --launch=kernels::fill (with --grid, --block and an --input per argument; docs/data.md); its kernels are kernels::fill, kernels::scale, more::twice{{$}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      memref.store %v, %out[%i] : memref<?xi32>
      gpu.return
    }
    gpu.func @scale(%out: memref<?xi32>, %k: i32) kernel {
      gpu.return
    }
    // Not a kernel: not listed.
    gpu.func @helper() {
      gpu.return
    }
  }
  gpu.module @more {
    gpu.func @twice(%out: memref<?xi32>) kernel {
      gpu.return
    }
  }
}

// LAUNCH: result[0]: memref<?xi32>
// LAUNCH-NEXT: [0,  1,  2,  3]
