// Host allocations with sizes no memory has: a negative size, and one whose
// byte count overflows (2^62 f32 elements are 2^64 bytes, which wrapped to
// 0 and let the program write into a 0-byte buffer). Both stop the program
// at the op before it allocates, with an error on stderr that gives the
// sizes, and nothing on stdout; so does a negative size in a kernel.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s --check-prefix=OVERFLOW --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e negative 2>&1 >%t.out | FileCheck %s --check-prefix=NEGATIVE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e static_overflow 2>&1 >%t.out | FileCheck %s --check-prefix=STATIC --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e in_kernel 2>&1 >%t.out | FileCheck %s --check-prefix=KERNEL --implicit-check-not=error:
// RUN: count 0 < %t.out

func.func private @printF32(f32)

func.func @main() {
  %n = arith.constant 4611686018427387904 : index
  // OVERFLOW: alloc-size-host.mlir:[[# @LINE + 1]]:8: error: memref.alloc: cannot allocate 4611686018427387904 elements of 4 bytes: that is more bytes than an index can count (9223372036854775807)
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
  // NEGATIVE: alloc-size-host.mlir:[[# @LINE + 1]]:8: error: memref.alloca: cannot allocate 4 x -2 elements of 4 bytes: size -2 (dimension 1) is negative
  %m = memref.alloca(%c4, %n) : memref<?x?xi32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  memref.store %one, %m[%c0, %c0] : memref<?x?xi32>
  return
}

// A static shape of more bytes than an index counts verifies; it stops the
// program when it runs.
func.func @static_overflow() {
  // STATIC: alloc-size-host.mlir:[[# @LINE + 1]]:8: error: memref.alloc: cannot allocate 4294967296 x 4294967297 elements of 4 bytes: that is more bytes than an index can count (9223372036854775807)
  %m = memref.alloc() : memref<4294967296x4294967297xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0, %c0] : memref<4294967296x4294967297xf32>
  memref.dealloc %m : memref<4294967296x4294967297xf32>
  return
}

func.func @in_kernel() {
  %c1 = arith.constant 1 : index
  %n = arith.constant -3 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // KERNEL: alloc-size-host.mlir:[[# @LINE + 1]]:10: error: memref.alloca: cannot allocate -3 elements of 8 bytes: size -3 (dimension 0) is negative
    %m = memref.alloca(%n) : memref<?xf64>
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f64
    memref.store %one, %m[%c0] : memref<?xf64>
    gpu.terminator
  }
  return
}
