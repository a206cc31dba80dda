// gpu.printf formats no GPU printf can print safely are refused when the
// program is compiled, each at its op with the conversion, its offset and
// the argument's type, before anything runs: libc would write through %n,
// read stray memory for a conversion without an argument, fault on %s of an
// integer, and print a gigabyte for %999999999d. The rules are the CUDA
// Programming Guide's "Format specifiers" (flags, width, precision, the
// sizes h, l and ll, the conversions cdiouxXeEfgGaA; %s and %p need a
// string or pointer gpu.printf cannot pass) with C's argument types.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s --implicit-check-not=error:
// RUN: count 0 < %t.out

func.func @main() {
  %c1 = arith.constant 1 : index
  %i32 = arith.constant 7 : i32
  %i64 = arith.constant 7 : i64
  %f32 = arith.constant 1.5 : f32
  %i48 = arith.constant 7 : i48
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%n' at offset 5 of the format: '%n' writes the number of characters printed so far to memory; gpu.printf does not take it
    gpu.printf "abcde%n\n", %i64 : i64
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%x' at offset 0 of the format: it has no argument: the format has 2 conversions that take one, but 0 arguments are passed
    gpu.printf "%x %x\n"
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%p' at offset 0 of the format: '%p' prints a pointer, and gpu.printf cannot pass one (its arguments are integers, index and floats); print an address held in an i64 or index with '%lx'
    gpu.printf "%p\n", %i64 : i64
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%s' at offset 0 of the format: '%s' prints a string, and gpu.printf cannot pass one (its arguments are integers, index and floats); write the text into the format
    gpu.printf "%s\n", %i32 : i32
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%999999999d' at offset 0 of the format: the width 999999999 is more than 1024, the most gpu.printf takes
    gpu.printf "%999999999d\n", %i32 : i32
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%.*f' at offset 0 of the format: a precision taken from an argument ('*') is not supported; write it into the format (at most 1024)
    gpu.printf "%.*f\n", %i32, %f32 : i32, f32
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 2 '%d' at offset 7 of the format: argument 2 has type i64, but '%d' takes an int (an integer of at most 32 bits); write '%ld' for i64 and index
    gpu.printf "%d and %d\n", %i32, %i64 : i32, i64
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%d' at offset 0 of the format: argument 1 has type index, but '%d' takes an int (an integer of at most 32 bits); write '%ld' for i64 and index
    gpu.printf "%d\n", %tx : index
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%f' at offset 0 of the format: argument 1 has type i32, but '%f' takes a float (f16, bf16, f32 or f64, printed as a double); write '%d' for an integer
    gpu.printf "%f\n", %i32 : i32
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: 2 arguments are passed, but the format has 1 conversion that takes one
    gpu.printf "%f\n", %f32, %f32 : f32, f32
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%zu' at offset 0 of the format: the size 'z' is C's, but CUDA's printf takes only the sizes h, l and ll; write '%lu' for a 64-bit integer (i64 or index)
    gpu.printf "%zu\n", %tx : index
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: conversion 1 '%\0A' at offset 0 of the format: '\0A' is not a conversion of CUDA's printf (d i o u x X c e E f g G a A, and %% for a percent sign)
    gpu.printf "%\n"
    // CHECK: printf-format-invalid.mlir:[[# @LINE + 1]]:5: error: 'gpu.printf' cannot print this format: argument 1 has type i48, which gpu.printf cannot pass; it passes signless integers of at most 32 bits (as an int), i64 and index (as a long), and f16, bf16, f32 and f64 (as a double)
    gpu.printf "%ld\n", %i48 : i48
    gpu.terminator
  }
  return
}
