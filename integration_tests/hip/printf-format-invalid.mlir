// gpu.printf formats are checked before the ROCDL lowering too: a format that
// HIP's printf would print as garbage, or read stray memory for, is an
// error at the op when the program is compiled (see errors/ for every rule).
// REQUIRES: hip-runner
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i64
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 2 '%lx' at offset 4 of the format: it has no argument: the format has 2 conversions that take one, but 1 argument is passed
    gpu.printf "%lx %lx\n", %tx : index
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%d' at offset 0 of the format: argument 1 has type i64, but '%d' takes an int (an integer of at most 32 bits); write '%ld' for i64 and index
    gpu.printf "%d\n", %v : i64
    gpu.terminator
  }
  return
}
