// Arithmetic on the float types LLVM has no type for, computed through f32
// and rounded once to the type, as each type defines its rounding: the
// values come from memory, so nothing is folded at compile time. Kernels:
// kernels/small-floats.mlir.
// RUN: %gpu-runner %s | FileCheck %s

// 1.5 and 3 in f8E4M3FN; 2^-59 in f8E8M0FNU; -2 in f4E2M1FN (low bits).
memref.global "private" constant @bits : memref<3xi8> = dense<[60, 68, 12]>
memref.global "private" constant @wide : memref<4xf32> =
    dense<[4.5, 4.9, 4.1, 3000.0]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %bits = memref.get_global @bits : memref<3xi8>
  %x = memref.load %bits[%c0] : memref<3xi8>
  %y = memref.load %bits[%c1] : memref<3xi8>
  %z = memref.load %bits[%c2] : memref<3xi8>
  %a = arith.bitcast %x : i8 to f8E4M3FN
  %b = arith.bitcast %y : i8 to f8E4M3FN

  // 1.5 + 3 = 4.5 and 1.5 * 3 = 4.5 are exact in f8E4M3FN; 3 / 1.5 = 2.
  // CHECK: 4.5
  // CHECK-NEXT: 4.5
  // CHECK-NEXT: 2
  %sum = arith.addf %a, %b : f8E4M3FN
  %product = arith.mulf %a, %b : f8E4M3FN
  %quotient = arith.divf %b, %a : f8E4M3FN
  vector.print %sum : f8E4M3FN
  vector.print %product : f8E4M3FN
  vector.print %quotient : f8E4M3FN
  // 1.5 / 3 = 0.5; 3 - 1.5 * 3 = -1.5 rounds once in f32, then to f8.
  // CHECK-NEXT: 0.5
  // CHECK-NEXT: -1.5
  %half = arith.divf %a, %b : f8E4M3FN
  %neg = arith.negf %a : f8E4M3FN
  %fma = math.fma %a, %b, %neg : f8E4M3FN
  %diff = arith.subf %fma, %sum : f8E4M3FN
  vector.print %half : f8E4M3FN
  vector.print %diff : f8E4M3FN
  // Compares and conversions to integers.
  // CHECK-NEXT: 1
  // CHECK-NEXT: 3
  %less = arith.cmpf olt, %a, %b : f8E4M3FN
  %three = arith.fptosi %b : f8E4M3FN to i32
  vector.print %less : i1
  vector.print %three : i32

  // f4E2M1FN: the low four bits of 12 are 1.10.0, -2.
  // CHECK-NEXT: -2
  %nibble = arith.trunci %z : i8 to i4
  %f4 = arith.bitcast %nibble : i4 to f4E2M1FN
  %f4wide = arith.extf %f4 : f4E2M1FN to f32
  vector.print %f4wide : f32

  // f8E8M0FNU holds powers of two: 68 is 2^(68 - 127). Its fma,
  // 2^-118 + 2^-59, rounds to 2^-59.
  // CHECK-NEXT: 1.73472e-18
  %e = arith.bitcast %y : i8 to f8E8M0FNU
  %efma = math.fma %e, %e, %e : f8E8M0FNU
  %ewide = arith.extf %efma : f8E8M0FNU to f32
  vector.print %ewide : f32

  // Truncation rounds as arith.truncf's rounding mode says, to nearest
  // with ties to even by default: 4.5 is halfway between f8E5M2's 4 and 5.
  %wide = memref.get_global @wide : memref<4xf32>
  %w0 = memref.load %wide[%c0] : memref<4xf32>
  %w1 = memref.load %wide[%c1] : memref<4xf32>
  %w2 = memref.load %wide[%c2] : memref<4xf32>
  %w3 = memref.load %wide[%c3] : memref<4xf32>
  // CHECK-NEXT: 4
  // CHECK-NEXT: 5
  // CHECK-NEXT: 4
  // CHECK-NEXT: 5
  %even = arith.truncf %w0 : f32 to f8E5M2
  %away = arith.truncf %w0 to_nearest_away : f32 to f8E5M2
  %down = arith.truncf %w1 toward_zero : f32 to f8E5M2
  %up = arith.truncf %w2 upward : f32 to f8E5M2
  vector.print %even : f8E5M2
  vector.print %away : f8E5M2
  vector.print %down : f8E5M2
  vector.print %up : f8E5M2
  // 3000 is past f8E4M3FN's largest value, 448, and the type has no
  // infinity: NaN. f8E5M2 has 3072 next to it.
  // CHECK-NEXT: nan
  // CHECK-NEXT: 3072
  %over = arith.truncf %w3 : f32 to f8E4M3FN
  %near = arith.truncf %w3 : f32 to f8E5M2
  vector.print %over : f8E4M3FN
  vector.print %near : f8E5M2

  // Vectors, element by element: (1.5, 3) * 2 + (1.5, 3).
  // CHECK-NEXT: ( 4.5, 9 )
  %pair = vector.from_elements %a, %b : vector<2xf8E4M3FN>
  %twice = arith.addf %pair, %pair : vector<2xf8E4M3FN>
  %plus = arith.addf %twice, %pair : vector<2xf8E4M3FN>
  %pluswide = arith.extf %plus : vector<2xf8E4M3FN> to vector<2xf32>
  vector.print %pluswide : vector<2xf32>
  return
}
