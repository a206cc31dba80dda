// memcheck: a kernel given host memory (memref.alloc, never copied to the
// device) stores to an address a GPU cannot reach. CUDA faults there ("an
// illegal memory access was encountered"); the host backend, whose device
// memory is host memory too, would run it silently without the check. The
// error names the thread and what the memory is, and the summary ends the
// report. Registered (gpu.host_register) and host_shared memory are memory
// a GPU reaches: the kernel runs on them without a report (the first two
// launches). Under AddressSanitizer the program's heap is the sanitizer's,
// which the message cannot name.
// RUN: %expect-exit-1 %gpu-runner %s --check=memcheck 2>&1 | FileCheck %s
// --check-bounds is the same check.
// RUN: %expect-exit-1 %gpu-runner %s --check-bounds 2>&1 | FileCheck %s
// Without it, the program runs to its end, as before.
// RUN: %gpu-runner %s | FileCheck %s --check-prefix=UNCHECKED

// CHECK-NOT: error:
// CHECK: memcheck-host-memory-in-kernel.mlir:[[# @LINE + 6]]:7: error: memcheck: memref.store: invalid store in kernel 'fill', block (0, 0, 0), thread (0, 0, 0): 0x{{[0-9a-f]+}} is host memory{{( \(the program's heap: memref.alloc or malloc\))?}}, given to the kernel as an argument; a GPU reaches only device memory (gpu.alloc), host_shared memory and host memory registered with gpu.host_register, and faults on any other address (an illegal address): copy the data to device memory with gpu.memcpy
// CHECK-NEXT: --check=memcheck: 1 error (memcheck 1)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<4xf32>, %value: f32) kernel {
      %t = gpu.thread_id x
      memref.store %value, %m[%t] : memref<4xf32>
      gpu.return
    }
  }

  func.func private @printF32(f32)
  func.func private @printNewline()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32

    %registered = memref.alloc() : memref<4xf32>
    %cast = memref.cast %registered : memref<4xf32> to memref<*xf32>
    gpu.host_register %cast : memref<*xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%registered : memref<4xf32>, %one : f32)

    %shared = gpu.alloc host_shared () : memref<4xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%shared : memref<4xf32>, %two : f32)

    %host = memref.alloc() : memref<4xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%host : memref<4xf32>, %three : f32)

    // UNCHECKED: 3
    %v = memref.load %host[%c0] : memref<4xf32>
    call @printF32(%v) : (f32) -> ()
    call @printNewline() : () -> ()
    gpu.host_unregister %cast : memref<*xf32>
    memref.dealloc %registered : memref<4xf32>
    memref.dealloc %host : memref<4xf32>
    gpu.dealloc %shared : memref<4xf32>
    return
  }
}
