// --split-input-file on gpu-runner-cuda without a GPU: each part, kernels
// included, compiles on its own for sm_90 (--compile-only runs nothing), a
// failing middle part reports its error at its line in this file while the
// next part still compiles, and the compile cache keeps each part apart:
// the second run hits both parts that compiled. Both parts name their
// gpu.module @kernels, which in one program would clash. On the driver
// stand-in, the run suite's --split-input-file program runs part by part.
// REQUIRES: cuda-runner, ptxas, cuda-standin-lib
// RUN: rm -rf %t && mkdir -p %t
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --split-input-file --cache-dir=%t/cache --timing %s > %t/out1 2> %t/err1
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines --strict-whitespace < %t/out1
// RUN: FileCheck %s --check-prefixes=ERR,MISS < %t/err1
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --split-input-file --cache-dir=%t/cache --timing %s > %t/out2 2> %t/err2
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines --strict-whitespace < %t/out2
// RUN: FileCheck %s --check-prefixes=ERR,HIT < %t/err2
// RUN: %gpu-runner-cuda-standin --split-input-file %S/../run/split-input-file.mlir | FileCheck %S/../run/split-input-file.mlir --match-full-lines --strict-whitespace

//      OUT:{{//}} -----
// OUT-NEXT:{{//}} -----
//  OUT-NOT:{{.}}

// MISS: compile cache: miss, stored as
// HIT: compile cache: hit,
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%data: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %data[%i] : memref<64xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %data[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %data = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%data : memref<64xf32>)
    gpu.dealloc %data : memref<64xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @print(%value: i64) kernel {
      // ERR: split-input-file.mlir:[[# @LINE + 1]]:7: error: 'gpu.printf' cannot print this format
      gpu.printf "%d\n", %value : i64
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %v = arith.constant 7 : i64
    gpu.launch_func @kernels::@print blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%v : i64)
    return
  }
}

// -----

// ERR: compile cache: miss, not stored: the program did not compile
// MISS: compile cache: miss, stored as
// HIT: compile cache: hit,
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square(%data: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %data[%i] : memref<64xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %data[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %data = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%data : memref<64xf32>)
    gpu.dealloc %data : memref<64xf32>
    return
  }
}
