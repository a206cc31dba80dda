// Every conversion and size gpu.printf takes, with each type it passes:
// integers of at most 32 bits are promoted to an int (sign-extended; i1 is
// 0 or 1), i64 and index are printed with l or ll, f16, bf16, f32 and f64
// as a double (C's default argument promotions, which CUDA's printf
// follows). One thread prints, so the lines come in order. The checks are
// exact, spaces included (--strict-whitespace), for the widths.
// RUN: %gpu-runner %s | FileCheck %s --match-full-lines --strict-whitespace

// CHECK:i1: 1 0
// CHECK-NEXT:i8: -1 4294967295 A
// CHECK-NEXT:i16: -5 65535 fffb
// CHECK-NEXT:i32: 42 42 52 2a 2A 0x2a |42    | +42|000042
// CHECK-NEXT:i64: -9000000000 18446744073709551615 ffffffffffffffff
// CHECK-NEXT:index: 48879 beef 0XBEEF 48879
// CHECK-NEXT:f16: 1.500000 1.5
// CHECK-NEXT:bf16: 2.5
// CHECK-NEXT:f32: 1.000e-01 1.000E-01 0.1
// CHECK-NEXT:f64: 1e+20 1E+20 3.250000 -0001.50 0x1p+0 0X1P+0
// CHECK-NEXT:100% done, width 10: |     -1.25|
// CHECK-NOT:{{.}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %false = arith.constant false
  %i8 = arith.constant -1 : i8
  %a = arith.constant 65 : i8
  %i16 = arith.constant -5 : i16
  %minus1_i16 = arith.constant -1 : i16
  %i32 = arith.constant 42 : i32
  %i64 = arith.constant -9000000000 : i64
  %minus1_i64 = arith.constant -1 : i64
  %index = arith.constant 48879 : index
  %f16 = arith.constant 1.5 : f16
  %bf16 = arith.constant 2.5 : bf16
  %f32 = arith.constant 0.1 : f32
  %big = arith.constant 1.0e20 : f64
  %f64 = arith.constant 3.25 : f64
  %neg = arith.constant -1.5 : f64
  %one = arith.constant 1.0 : f64
  %w = arith.constant -1.25 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.printf "i1: %d %u\n", %true, %false : i1, i1
    gpu.printf "i8: %d %u %c\n", %i8, %i8, %a : i8, i8, i8
    gpu.printf "i16: %hd %hu %hx\n", %i16, %minus1_i16, %i16 : i16, i16, i16
    gpu.printf "i32: %d %i %o %x %X %#x |%-6d| %+d|%06d\n", %i32, %i32, %i32, %i32, %i32, %i32, %i32, %i32, %i32 : i32, i32, i32, i32, i32, i32, i32, i32, i32
    gpu.printf "i64: %ld %llu %lx\n", %i64, %minus1_i64, %minus1_i64 : i64, i64, i64
    gpu.printf "index: %ld %lx %#llX %lu\n", %index, %index, %index, %index : index, index, index, index
    gpu.printf "f16: %f %g\n", %f16, %f16 : f16, f16
    gpu.printf "bf16: %.1f\n", %bf16 : bf16
    gpu.printf "f32: %.3e %.3E %g\n", %f32, %f32, %f32 : f32, f32, f32
    gpu.printf "f64: %g %G %lf %+08.2f %a %A\n", %big, %big, %f64, %neg, %one, %one : f64, f64, f64, f64, f64, f64
    gpu.printf "100%% done, width 10: |%10.2f|\n", %w : f32
    gpu.terminator
  }
  return
}
