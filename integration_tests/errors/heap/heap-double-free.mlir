// A host buffer freed twice: reported at the second memref.dealloc.
// Built with AddressSanitizer, the program's malloc and free are the
// sanitizer's (wrappers/common/ProgramHeap.h), which checks heap memory its
// own way.
// UNSUPPORTED: sanitizers
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %m = memref.alloc() : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f32
  memref.store %v, %m[%c0] : memref<2xf32>
  memref.store %v, %m[%c1] : memref<2xf32>
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<2xf32>
  memref.dealloc %m : memref<2xf32>
  return
}

// CHECK: heap-double-free.mlir:[[# @LINE - 4]]:3: error: memref.dealloc: double free: the block at 0x{{[0-9a-f]+}} was already freed
