// initcheck: reads of memory that nothing wrote. A GPU's new device memory
// and a block's workgroup memory hold whatever was there; the host backend
// gives zeros, so such a program prints plausible numbers here and others
// on a GPU. Reported once per op and allocation; the program goes on.
// RUN: %expect-exit-1 %gpu-runner %s --check=initcheck 2>&1 | FileCheck %s
// What gpu.memset, gpu.memcpy and the kernels' stores wrote is never
// reported, nor what a kernel wrote in ways the check cannot follow (a
// vector.transfer_write): the last two launches and copies.

// CHECK-DAG: initcheck.mlir:[[# @LINE + 30]]:16: error: initcheck: memref.load: uninitialized load in kernel 'sum_tile', block (0, 0, 0): thread (0, 0, 0) reads bytes [64, 68) of workgroup memory that no thread of the block wrote: a GPU's workgroup memory holds whatever was there before the block
// CHECK-DAG: initcheck.mlir:[[# @LINE + 9]]:12: error: initcheck: memref.load: uninitialized load in kernel 'scale', block (0, 0, 0), thread (4, 0, 0): byte 16 of the 64-byte allocation made by gpu.alloc at {{.*}}initcheck.mlir:[[# @LINE + 53]]:10 was never written (no gpu.memset, gpu.memcpy or store since gpu.alloc); a GPU's new memory holds whatever was there
// CHECK-DAG: initcheck.mlir:[[# @LINE + 61]]:5: error: initcheck: gpu.memcpy: the copy reads device memory that nothing wrote: bytes [32, 64) of the 64-byte allocation made by gpu.alloc at {{.*}}initcheck.mlir:[[# @LINE + 58]]:13 (no gpu.memset, gpu.memcpy or kernel store since gpu.alloc; a GPU's new memory holds whatever was there)
// CHECK: --check=initcheck: 3 errors (initcheck 3)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Doubles 16 floats of which the first 4 were set.
    gpu.func @scale(%m: memref<16xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %m[%t] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%t] : memref<16xf32>
      gpu.return
    }

    // Sums a tile of workgroup memory that one thread too few filled.
    gpu.func @sum_tile(%out: memref<1xf32>)
        workgroup(%tile: memref<17xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %tile[%t] : memref<17xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c17 = arith.constant 17 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %zero = arith.constant 0.0 : f32
        %sum = scf.for %i = %c0 to %c17 step %c1 iter_args(%acc = %zero) -> f32 {
          %v = memref.load %tile[%i] : memref<17xf32, #gpu.address_space<workgroup>>
          %s = arith.addf %acc, %v : f32
          scf.yield %s : f32
        }
        memref.store %sum, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }

    // Fills 4 floats with a transfer_write, which the check cannot follow.
    gpu.func @fill(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant dense<2.0> : vector<4xf32>
      vector.transfer_write %v, %m[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant 1.0 : f32
    %m = gpu.alloc () : memref<16xf32>
    %head = memref.subview %m[0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1]>>
    gpu.memset %head, %one : memref<4xf32, strided<[1]>>, f32
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    %h = memref.alloc() : memref<16xf32>
    gpu.memcpy %h, %m : memref<16xf32>, memref<16xf32>
    %part = gpu.alloc () : memref<16xf32>
    %half = memref.subview %part[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
    gpu.memset %half, %one : memref<8xf32, strided<[1]>>, f32
    gpu.memcpy %h, %part : memref<16xf32>, memref<16xf32>

    %out = gpu.alloc () : memref<1xf32>
    gpu.launch_func @kernels::@sum_tile blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%out : memref<1xf32>)

    %f = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : memref<4xf32>)
    %hf = memref.alloc() : memref<4xf32>
    gpu.memcpy %hf, %f : memref<4xf32>, memref<4xf32>
    %ho = memref.alloc() : memref<1xf32>
    gpu.memcpy %ho, %out : memref<1xf32>, memref<1xf32>

    gpu.dealloc %m : memref<16xf32>
    gpu.dealloc %part : memref<16xf32>
    gpu.dealloc %out : memref<1xf32>
    gpu.dealloc %f : memref<4xf32>
    memref.dealloc %h : memref<16xf32>
    memref.dealloc %hf : memref<4xf32>
    memref.dealloc %ho : memref<1xf32>
    return
  }
}
