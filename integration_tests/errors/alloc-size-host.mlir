// Host allocations with sizes no memory has: a negative size, and one whose
// byte count overflows (2^62 f32 elements are 2^64 bytes, which wrapped to
// 0 and let the program write into a 0-byte buffer). Both stop the program
// at the op before it allocates.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: %expect-exit-1 %gpu-runner %s -e negative 2>&1 | FileCheck %s --check-prefix=NEGATIVE

func.func private @printF32(f32)

func.func @main() {
  %n = arith.constant 4611686018427387904 : index
  // OVERFLOW: alloc-size-host.mlir:[[# @LINE + 2]]:8: error: memref.alloc: a size is negative, or the allocation has more bytes than an index can count
  // OVERFLOW-NEXT: error: the program aborted: a failed cf.assert (its message is printed above) or a call of abort()
  %m = memref.alloc(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<?xf32>
  %v = memref.load %m[%c0] : memref<?xf32>
  call @printF32(%v) : (f32) -> ()
  memref.dealloc %m : memref<?xf32>
  return
}

func.func @negative() {
  %c4 = arith.constant 4 : index
  %n = arith.constant -2 : index
  // NEGATIVE: alloc-size-host.mlir:[[# @LINE + 1]]:8: error: memref.alloca: a size is negative, or the allocation has more bytes than an index can count
  %m = memref.alloca(%c4, %n) : memref<?x?xi32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  memref.store %one, %m[%c0, %c0] : memref<?x?xi32>
  return
}
