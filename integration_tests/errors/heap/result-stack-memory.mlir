// A result in the entry point's stack memory (memref.alloca) is gone once
// the entry point returns, and is no heap block to free: an error at the
// entry point that says so, not the C library's "free(): invalid pointer"
// reported as the program's heap corruption.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=free
// RUN: %expect-exit-1 %gpu-runner %s -e view 2>&1 | FileCheck %s --check-prefix=VIEW --implicit-check-not=error: --implicit-check-not=free

// CHECK: result-stack-memory.mlir:[[# @LINE + 1]]:1: error: result[0]: the entry point returned stack memory (memref.alloca), which ends with its call: return memory from memref.alloc
func.func @main() -> memref<4xf32> {
  %a = memref.alloca() : memref<4xf32>
  %c = arith.constant 1.0 : f32
  %i = arith.constant 0 : index
  memref.store %c, %a[%i] : memref<4xf32>
  return %a : memref<4xf32>
}

// VIEW: error: result[1]: the entry point returned stack memory (memref.alloca)
func.func @view() -> (memref<2xi32>, memref<2xi32, strided<[1], offset: 2>>) {
  %heap = memref.alloc() : memref<2xi32>
  %stack = memref.alloca() : memref<4xi32>
  %view = memref.subview %stack[2] [2] [1]
      : memref<4xi32> to memref<2xi32, strided<[1], offset: 2>>
  return %heap, %view : memref<2xi32>, memref<2xi32, strided<[1], offset: 2>>
}
