// A returned memref whose descriptor reaches past the memory it was
// allocated with (memref.reinterpret_cast to a larger shape) is refused at
// the entry point, naming the result and the sizes, not read past its end.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=HEAP
// RUN: %expect-exit-1 %gpu-runner %s -e strided 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: %expect-exit-1 %gpu-runner %s -e before 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: %expect-exit-1 %gpu-runner %s -e argument --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=ARGUMENT
// RUN: %expect-exit-1 %gpu-runner %s -e far 2>&1 | FileCheck %s --check-prefix=FAR
// A view inside its allocation is read as before.
// RUN: %gpu-runner %s -e inside 2>&1 | FileCheck %s --check-prefix=INSIDE

// HEAP: data-result-past-allocation.mlir:[[# @LINE + 1]]:1: error: result[0]: the returned memref<8xf32>'s offset, sizes and strides reach bytes 0 to 32 of its allocation, which holds 16 bytes: a memref may only describe elements inside the memory it was allocated with
func.func @main() -> memref<8xf32> {
  %a = memref.alloc() : memref<4xf32>
  %wide = memref.reinterpret_cast %a to offset: [0], sizes: [8], strides: [1]
      : memref<4xf32> to memref<8xf32>
  return %wide : memref<8xf32>
}

// STRIDED: error: result[1]: the returned memref<2x3xi32>'s offset, sizes and strides reach bytes 8 to 92 of its allocation, which holds 64 bytes
func.func @strided() -> (i32, memref<2x3xi32, strided<[16, 2], offset: 2>>) {
  %a = memref.alloc() : memref<16xi32>
  %view = memref.reinterpret_cast %a to offset: [2], sizes: [2, 3], strides: [16, 2]
      : memref<16xi32> to memref<2x3xi32, strided<[16, 2], offset: 2>>
  %c = arith.constant 0 : i32
  return %c, %view : i32, memref<2x3xi32, strided<[16, 2], offset: 2>>
}

// BEFORE: error: result[0]: the returned memref<4xf32>'s offset, sizes and strides reach bytes -4 to 12 of its allocation, which holds 16 bytes
func.func @before() -> memref<4xf32, strided<[1], offset: ?>> {
  %a = memref.alloc() : memref<4xf32>
  %minus1 = arith.constant -1 : index
  %view = memref.reinterpret_cast %a to offset: [%minus1], sizes: [4], strides: [1]
      : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  return %view : memref<4xf32, strided<[1], offset: ?>>
}

// ARGUMENT: error: result[0]: the returned memref<5xf32>'s offset, sizes and strides reach bytes 0 to 20 of its allocation, which holds 16 bytes
func.func @argument(%in: memref<4xf32>) -> memref<5xf32> {
  %wide = memref.reinterpret_cast %in to offset: [0], sizes: [5], strides: [1]
      : memref<4xf32> to memref<5xf32>
  return %wide : memref<5xf32>
}

// Far past the block, where reading it would fault.
// FAR: error: result[0]: the returned memref<16777216xf32>'s offset, sizes and strides reach bytes 0 to 67108864 of its allocation, which holds 16 bytes
func.func @far() -> memref<16777216xf32> {
  %a = memref.alloc() : memref<4xf32>
  %wide = memref.reinterpret_cast %a to offset: [0], sizes: [16777216], strides: [1]
      : memref<4xf32> to memref<16777216xf32>
  return %wide : memref<16777216xf32>
}

// INSIDE: [2, 3]
func.func @inside() -> memref<2xi32, strided<[1], offset: 2>> {
  %a = memref.alloc() : memref<4xi32>
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  memref.store %c2, %a[%i2] : memref<4xi32>
  memref.store %c3, %a[%i3] : memref<4xi32>
  %view = memref.reinterpret_cast %a to offset: [2], sizes: [2], strides: [1]
      : memref<4xi32> to memref<2xi32, strided<[1], offset: 2>>
  return %view : memref<2xi32, strided<[1], offset: 2>>
}
