// Host code that reads device memory after freeing it faults in the
// program's own (JIT-compiled) code: an error with status 1, not a crash.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func private @printF32(f32)

func.func @main() {
  %dev = gpu.alloc () : memref<16xf32>
  gpu.dealloc %dev : memref<16xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %dev[%c0] : memref<16xf32>
  call @printF32(%v) : (f32) -> ()
  return
}

// CHECK: error: invalid memory access at 0x{{[0-9a-f]+}} in the program's host code (outside any kernel)
