// A GPU thread whose private memory does not fit its fiber's 128 KiB stack
// runs into the guard page below it: reported as a stack overflow of that
// thread, not a crash. Frames probe their pages, so a large array cannot
// jump over the guard page into other memory.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @big(%out: memref<4xf32>, %n: index)
        private(%scratch: memref<65536xf32, #gpu.address_space<private>>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      scf.for %i = %c0 to %n step %c1 {
        memref.store %one, %scratch[%i] : memref<65536xf32, #gpu.address_space<private>>
      }
      gpu.barrier
      %v = memref.load %scratch[%tid] : memref<65536xf32, #gpu.address_space<private>>
      memref.store %v, %out[%tid] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 65536 : index
    %dev = gpu.alloc () : memref<4xf32>
    // CHECK: kernel-stack-overflow.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'big': stack overflow in block (0, 0, 0), thread (0, 0, 0): a GPU thread has 128 KiB of stack on the host backend, for its private memory and calls; use workgroup or device memory for large arrays
    gpu.launch_func @kernels::@big blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<4xf32>, %n : index)
    gpu.dealloc %dev : memref<4xf32>
    return
  }
}
