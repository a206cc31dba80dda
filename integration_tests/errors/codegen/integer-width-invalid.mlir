// MLIR's integers have 0 to 16777215 bits, LLVM's 1 to 8388608. An integer
// type LLVM cannot represent is an error at each op that makes, holds or
// names it, before anything is translated (i0 made LLVM's instruction
// combining divide by zero; found by fuzzing).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

// CHECK: integer-width-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' uses 'i0', which LLVM cannot represent: its integers have at least 1 bit
func.func private @printMemrefI32(memref<*xi0>)

// CHECK: integer-width-invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' uses 'i9000000', which LLVM cannot represent: its integers have at most 8388608 bits
func.func @wide(%x: i9000000) -> i9000000 {
  return %x : i9000000
}

func.func @main() {
  %c0 = arith.constant 0 : index
  // CHECK: integer-width-invalid.mlir:[[# @LINE + 1]]:8: error: 'memref.alloc' uses 'i0', which LLVM cannot represent: its integers have at least 1 bit
  %a = memref.alloc() : memref<6xi0>
  // CHECK: integer-width-invalid.mlir:[[# @LINE + 1]]:8: error: 'arith.index_cast' uses 'i0', which LLVM cannot represent: its integers have at least 1 bit
  %v = arith.index_cast %c0 : index to i0
  // CHECK: integer-width-invalid.mlir:[[# @LINE + 1]]:8: error: 'arith.constant' uses 'i0', which LLVM cannot represent: its integers have at least 1 bit
  %w = arith.constant dense<0> : vector<4xi0>
  // The widest LLVM has is fine.
  %x = arith.constant 1 : i8388608
  return
}
