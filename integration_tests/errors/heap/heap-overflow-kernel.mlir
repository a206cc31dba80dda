// A kernel that writes one element past the end of a host buffer
// (memref.alloc; the host backend's kernels reach host memory), which the
// host code then frees: the free reports the damage.
// Built with AddressSanitizer, the program's malloc and free are the
// sanitizer's (wrappers/common/ProgramHeap.h), which checks heap memory its
// own way.
// UNSUPPORTED: sanitizers
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %v = arith.constant 1.0 : f32
      memref.store %v, %out[%tid] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %host = memref.alloc(%c8) : memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c9, %c1, %c1) args(%host : memref<?xf32>)
    memref.dealloc %host : memref<?xf32>
    return
  }
}

// CHECK: heap-overflow-kernel.mlir:[[# @LINE - 5]]:5: error: memref.dealloc: heap corruption: the program wrote past the end of the 32-byte block at 0x{{[0-9a-f]+}}: byte 0 past its end was changed
