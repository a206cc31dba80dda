// --check-bounds checks the memref ops of the host code too (upstream's
// runtime verification, and a check of memref.reinterpret_cast of our own):
// the first check that fails is an error at its op, with the check's
// message, on stderr, and the program stops with status 1 before the op
// runs (nothing after it is printed).
// RUN: %expect-exit-1 %gpu-runner --check-bounds %s 2>&1 >%t.out | FileCheck %s --check-prefix=LOAD --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e store %s 2>&1 >%t.out | FileCheck %s --check-prefix=STORE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e subview %s 2>&1 >%t.out | FileCheck %s --check-prefix=SUBVIEW --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e cast %s 2>&1 >%t.out | FileCheck %s --check-prefix=CAST --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e reinterpret %s 2>&1 >%t.out | FileCheck %s --check-prefix=REINTERPRET --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e reinterpret_before %s 2>&1 >%t.out | FileCheck %s --check-prefix=BEFORE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e reinterpret_negative_size %s 2>&1 >%t.out | FileCheck %s --check-prefix=NEGATIVE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e copy %s 2>&1 >%t.out | FileCheck %s --check-prefix=COPY --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e linalg %s 2>&1 >%t.out | FileCheck %s --check-prefix=LINALG --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e affine %s 2>&1 >%t.out | FileCheck %s --check-prefix=AFFINE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e vector %s 2>&1 >%t.out | FileCheck %s --check-prefix=VECTOR --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner --check-bounds -e in_async %s 2>&1 >%t.out | FileCheck %s --check-prefix=ASYNC --implicit-check-not=error:
// RUN: count 0 < %t.out

func.func private @printI64(i64)

func.func @printI32(%v: i32) {
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  return
}

// Passes an index through a call, so that the verifier does not see the
// bad sizes and offsets: the checks are the run time's.
func.func private @opaque(%n: index) -> index {
  return %n : index
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %n = func.call @opaque(%c4) : (index) -> index
  %m = memref.alloc(%n) : memref<?xi32>
  // LOAD: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.load: out-of-bounds access
  %v = memref.load %m[%n] : memref<?xi32>
  call @printI32(%v) : (i32) -> ()
  return
}

func.func @store() {
  %c4 = arith.constant 4 : index
  %c-1 = arith.constant -1 : index
  %i = func.call @opaque(%c-1) : (index) -> index
  %m = memref.alloca() : memref<2x4xi32>
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  // STORE: check-bounds-host.mlir:[[# @LINE + 1]]:3: error: memcheck: memref.store: out-of-bounds access
  memref.store %one, %m[%c0, %i] : memref<2x4xi32>
  call @printI32(%one) : (i32) -> ()
  return
}

func.func @subview() {
  %c3 = arith.constant 3 : index
  %offset = func.call @opaque(%c3) : (index) -> index
  %m = memref.alloca() : memref<8xi32>
  // Elements 3 to 10 of 8.
  // SUBVIEW: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.subview: subview runs out-of-bounds along dimension 0
  %s = memref.subview %m[%offset] [8] [1] : memref<8xi32> to memref<8xi32, strided<[1], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %s[%c0] : memref<8xi32, strided<[1], offset: ?>>
  call @printI32(%v) : (i32) -> ()
  return
}

func.func @cast() {
  %c6 = arith.constant 6 : index
  %n = func.call @opaque(%c6) : (index) -> index
  %m = memref.alloc(%n) : memref<?xi32>
  // CAST: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.cast: size mismatch of dim 0
  %s = memref.cast %m : memref<?xi32> to memref<8xi32>
  %c7 = arith.constant 7 : index
  %v = memref.load %s[%c7] : memref<8xi32>
  call @printI32(%v) : (i32) -> ()
  return
}

func.func @reinterpret() {
  %c2 = arith.constant 2 : index
  %offset = func.call @opaque(%c2) : (index) -> index
  %m = memref.alloca() : memref<4x4xi32>
  // A 4x4 view that starts two elements in: its last two are past the end.
  // REINTERPRET: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.reinterpret_cast: the result reaches elements outside the source memref
  %r = memref.reinterpret_cast %m to offset: [%offset], sizes: [4, 4], strides: [4, 1] : memref<4x4xi32> to memref<4x4xi32, strided<[4, 1], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %r[%c0, %c0] : memref<4x4xi32, strided<[4, 1], offset: ?>>
  call @printI32(%v) : (i32) -> ()
  return
}

func.func @reinterpret_before() {
  %c1 = arith.constant 1 : index
  %offset = func.call @opaque(%c1) : (index) -> index
  %m = memref.alloca() : memref<8xi32>
  %s = memref.subview %m[4] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 4>>
  // The elements 1, 3 and 5 of %m: 1 and 3 come before %s's.
  // BEFORE: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.reinterpret_cast: the result reaches elements outside the source memref
  %r = memref.reinterpret_cast %s to offset: [%offset], sizes: [3], strides: [2] : memref<4xi32, strided<[1], offset: 4>> to memref<3xi32, strided<[2], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %r[%c0] : memref<3xi32, strided<[2], offset: ?>>
  call @printI32(%v) : (i32) -> ()
  return
}

func.func @reinterpret_negative_size() {
  %c-2 = arith.constant -2 : index
  %size = func.call @opaque(%c-2) : (index) -> index
  %m = memref.alloca() : memref<8xi32>
  // NEGATIVE: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.reinterpret_cast: the result's size in dimension 0 is negative
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%size], strides: [1] : memref<8xi32> to memref<?xi32>
  %one = arith.constant 1 : i32
  call @printI32(%one) : (i32) -> ()
  return
}

func.func @copy() {
  %c3 = arith.constant 3 : index
  %n = func.call @opaque(%c3) : (index) -> index
  %a = memref.alloca(%n) : memref<?xi32>
  %b = memref.alloca() : memref<4xi32>
  // COPY: check-bounds-host.mlir:[[# @LINE + 1]]:3: error: memcheck: memref.copy: size of 0-th source/target dim does not match
  memref.copy %a, %b : memref<?xi32> to memref<4xi32>
  %one = arith.constant 1 : i32
  call @printI32(%one) : (i32) -> ()
  return
}

func.func @linalg() {
  %c3 = arith.constant 3 : index
  %n = func.call @opaque(%c3) : (index) -> index
  %a = memref.alloca(%n) : memref<?xi32>
  %b = memref.alloca() : memref<4xi32>
  // LINALG: check-bounds-host.mlir:[[# @LINE + 1]]:3: error: memcheck: linalg.add: dimension #0 of input/output operand #1 is incompatible with inferred dimension size
  linalg.add ins(%a, %b : memref<?xi32>, memref<4xi32>) outs(%b : memref<4xi32>)
  %one = arith.constant 1 : i32
  call @printI32(%one) : (i32) -> ()
  return
}

// The first iteration reads m[4] of 4 elements.
func.func @affine() {
  %c4 = arith.constant 4 : index
  %n = func.call @opaque(%c4) : (index) -> index
  %m = memref.alloca(%n) : memref<?xi32>
  affine.for %i = 0 to %n {
    // AFFINE: check-bounds-host.mlir:[[# @LINE + 1]]:10: error: memcheck: affine.load: out-of-bounds access
    %v = affine.load %m[%i + 4] : memref<?xi32>
    func.call @printI32(%v) : (i32) -> ()
  }
  return
}

// Four elements from index 2 of 2x4: the last two are past the row.
func.func @vector() {
  %c2 = arith.constant 2 : index
  %j = func.call @opaque(%c2) : (index) -> index
  %m = memref.alloca() : memref<2x4xi32>
  %c1 = arith.constant 1 : index
  // VECTOR: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: vector.load: out-of-bounds access
  %v = vector.load %m[%c1, %j] : memref<2x4xi32>, vector<4xi32>
  %e = vector.extract %v[0] : i32 from vector<4xi32>
  call @printI32(%e) : (i32) -> ()
  return
}

// Inside an async.execute body, whose ops run on the async runtime's
// threads, the check stops the program the same way.
func.func @in_async() {
  %c4 = arith.constant 4 : index
  %n = func.call @opaque(%c4) : (index) -> index
  %m = memref.alloc() : memref<4xi32>
  %one = arith.constant 1 : i32
  %t = async.execute {
    // ASYNC: check-bounds-host.mlir:[[# @LINE + 1]]:5: error: memcheck: memref.store: out-of-bounds access
    memref.store %one, %m[%n] : memref<4xi32>
    async.yield
  }
  async.await %t : !async.token
  call @printI32(%one) : (i32) -> ()
  return
}
