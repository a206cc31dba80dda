// Host code that writes past the end of a memref.alloc buffer and frees it:
// the program's heap is gpu-runner's own (wrappers/common/ProgramHeap.h),
// so the write damages no memory of the runner, and the free finds it in
// the block's redzone. It used to end in a crash of the C library's free,
// or a hang.
// Built with AddressSanitizer, the program's malloc and free are the
// sanitizer's (wrappers/common/ProgramHeap.h), which checks heap memory its
// own way.
// UNSUPPORTED: sanitizers
// With --check-bounds, the view that reaches past the buffer is refused
// where it is made.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner --check-bounds %s 2>&1 | FileCheck %s --check-prefix=CHECKED --implicit-check-not=error:

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c200 = arith.constant 200 : index
  %v = arith.constant 7.0 : f32
  %m = memref.alloc() : memref<16xf32>
  // CHECKED: heap-overflow-host.mlir:[[# @LINE + 1]]:10: error: memcheck: memref.reinterpret_cast: the result reaches elements outside the source memref
  %big = memref.reinterpret_cast %m to offset: [0], sizes: [200], strides: [1] : memref<16xf32> to memref<200xf32>
  scf.for %i = %c0 to %c200 step %c1 {
    memref.store %v, %big[%i] : memref<200xf32>
  }
  // Printed, so that the buffer is not optimized away.
  %u = memref.cast %m : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<16xf32>
  return
}

// CHECK: heap-overflow-host.mlir:[[# @LINE - 4]]:3: error: memref.dealloc: heap corruption: the program wrote past the end of the 64-byte block at 0x{{[0-9a-f]+}}: byte 0 past its end was changed; the program wrote outside the block; run with --check-bounds to find the write
