// Freed device memory faults on access: a kernel that reads a buffer after
// its gpu.dealloc is stopped, and --check-bounds names the load and both ops.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %expect-exit-1 %gpu-runner %s --check-bounds 2>&1 | FileCheck %s --check-prefix=CHECKED

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%dst: memref<64xf32>, %src: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      // CHECKED: kernel-use-after-free.mlir:[[# @LINE + 1]]:12: error: memcheck: memref.load: invalid load in kernel 'copy', block (0, 0, 0), thread (0, 0, 0): use after free: the load is in the 256-byte allocation made by gpu.alloc at {{.*}}kernel-use-after-free.mlir:[[# @LINE + 11]]:12, which was freed by gpu.dealloc at {{.*}}kernel-use-after-free.mlir:[[# @LINE + 12]]:5
      %v = memref.load %src[%tid] : memref<64xf32>
      memref.store %v, %dst[%tid] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %dst = gpu.alloc () : memref<64xf32>
    %src = gpu.alloc () : memref<64xf32>
    gpu.dealloc %src : memref<64xf32>
    // FAULT: kernel-use-after-free.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'copy': invalid memory access at 0x{{[0-9a-f]+}} in block (0, 0, 0)
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dst : memref<64xf32>, %src : memref<64xf32>)
    gpu.dealloc %dst : memref<64xf32>
    return
  }
}
