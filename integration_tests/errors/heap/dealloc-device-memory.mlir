// memref.dealloc (the C library's free) of gpu.alloc's memory is an error
// at the memref.dealloc that names the allocation, not a crash inside free.
// Built with AddressSanitizer, the program's malloc and free are the
// sanitizer's (wrappers/common/ProgramHeap.h), which checks heap memory its
// own way.
// UNSUPPORTED: sanitizers
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %m = gpu.alloc () : memref<16xf32>
  memref.dealloc %m : memref<16xf32>
  return
}

// CHECK: dealloc-device-memory.mlir:[[# @LINE - 4]]:3: error: memref.dealloc: 0x{{[0-9a-f]+}} is device memory (the 64-byte allocation made by gpu.alloc at {{.*}}dealloc-device-memory.mlir:[[# @LINE - 5]]:8): free it with gpu.dealloc, not memref.dealloc or free
