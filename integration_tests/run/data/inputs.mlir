// Each form of --input gives the entry point its arguments, and each result
// is printed as `result[N]: TYPE`, then its values as printMemref prints
// data.
// RUN: %gpu-runner %s -e scalars --input=42 --input=-1.5 --input=i64=-7 --input=index=3 --input=true | FileCheck %s --check-prefix=SCALARS
// RUN: %gpu-runner %s -e twice --input=2x3xf32=1,2,3,4,5,6 | FileCheck %s --check-prefix=SHAPED
// RUN: %gpu-runner %s -e twice --input=2x3xf32=0.5 | FileCheck %s --check-prefix=SPLAT
// RUN: %python -c "import struct, sys; sys.stdout.buffer.write(struct.pack('<6f', 1, 2, 3, 4, 5, 6))" > %t.bin
// RUN: %gpu-runner %s -e twice --input=2x3xf32=@%t.bin | FileCheck %s --check-prefix=SHAPED
// RUN: %python %S/Inputs/make-npy.py %t.npy '<f4' 2,3 1,2,3,4,5,6
// RUN: %gpu-runner %s -e twice --input=@%t.npy | FileCheck %s --check-prefix=SHAPED
// RUN: %python %S/Inputs/make-npy.py %t-v2.npy '<f4' 2,3 1,2,3,4,5,6 --version 2
// RUN: %gpu-runner %s -e twice --input=@%t-v2.npy | FileCheck %s --check-prefix=SHAPED
// Unsigned NumPy data is the signless integers' bits; bool is i1.
// RUN: %python %S/Inputs/make-npy.py %t-u8.npy '|u1' 4 0,1,200,255
// RUN: %python %S/Inputs/make-npy.py %t-b1.npy '|b1' 2 1,0
// RUN: %python %S/Inputs/make-npy.py %t-f2.npy '<f2' 3 0.5,-2,65504
// RUN: %gpu-runner %s -e types --input=@%t-u8.npy --input=@%t-b1.npy --input=@%t-f2.npy --input=2xi16=-32768,65535 --input=1xf64=0.1 | FileCheck %s --check-prefix=TYPES
// A 0-d memref takes a scalar or a 0-d array; an empty memref prints [].
// RUN: %python %S/Inputs/make-npy.py %t-0d.npy '<i4' '' 9
// RUN: %gpu-runner %s -e zero_d --input=5 --input=@%t-0d.npy --input=0x3xi32=0 | FileCheck %s --check-prefix=ZERO-D

// SCALARS:      result[0]: i32
// SCALARS-NEXT: 42
// SCALARS-NEXT: result[1]: f32
// SCALARS-NEXT: -1.5
// SCALARS-NEXT: result[2]: i64
// SCALARS-NEXT: -7
// SCALARS-NEXT: result[3]: index
// SCALARS-NEXT: 3
// SCALARS-NEXT: result[4]: i1
// SCALARS-NEXT: 1
// SCALARS-NOT: {{.}}
func.func @scalars(%a: i32, %b: f32, %c: i64, %d: index, %e: i1)
    -> (i32, f32, i64, index, i1) {
  return %a, %b, %c, %d, %e : i32, f32, i64, index, i1
}

// The sum of the elements, and a new memref of each doubled; the input is
// returned too, unchanged.
// SHAPED:      result[0]: f32
// SHAPED-NEXT: 21
// SHAPED-NEXT: result[1]: memref<2x?xf32>
// SHAPED-NEXT: {{^}}{{\[}}[2,   4,   6], {{$}}
// SHAPED-NEXT: {{^}} [8,   10,   12]]{{$}}
// SHAPED-NEXT: result[2]: memref<2x?xf32>
// SHAPED-NEXT: {{^}}{{\[}}[1,   2,   3], {{$}}
// SHAPED-NEXT: {{^}} [4,   5,   6]]{{$}}
// SPLAT:      result[0]: f32
// SPLAT-NEXT: 3
// SPLAT-NEXT: result[1]: memref<2x?xf32>
// SPLAT-NEXT: {{^}}{{\[}}[1,   1,   1], {{$}}
// SPLAT-NEXT: {{^}} [1,   1,   1]]{{$}}
func.func @twice(%m: memref<2x?xf32>) -> (f32, memref<2x?xf32>, memref<2x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %n = memref.dim %m, %c1 : memref<2x?xf32>
  %out = memref.alloc(%n) : memref<2x?xf32>
  %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %zero) -> f32 {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%t = %s) -> f32 {
      %x = memref.load %m[%i, %j] : memref<2x?xf32>
      %y = arith.mulf %x, %two : f32
      memref.store %y, %out[%i, %j] : memref<2x?xf32>
      %u = arith.addf %t, %x : f32
      scf.yield %u : f32
    }
    scf.yield %row : f32
  }
  return %sum, %out, %m : f32, memref<2x?xf32>, memref<2x?xf32>
}

// TYPES:      result[0]: memref<4xi8>
// TYPES-NEXT: [0,  1,  -56,  -1]
// TYPES-NEXT: result[1]: memref<2xi1>
// TYPES-NEXT: [1,  0]
// TYPES-NEXT: result[2]: memref<3xf16>
// TYPES-NEXT: [0.5,  -2,  65504]
// TYPES-NEXT: result[3]: memref<2xi16>
// TYPES-NEXT: [-32768,  -1]
// TYPES-NEXT: result[4]: memref<1xf64>
// TYPES-NEXT: [0.1]
func.func @types(%a: memref<4xi8>, %b: memref<2xi1>, %c: memref<3xf16>,
                 %d: memref<2xi16>, %e: memref<1xf64>)
    -> (memref<4xi8>, memref<2xi1>, memref<3xf16>, memref<2xi16>,
        memref<1xf64>) {
  return %a, %b, %c, %d, %e : memref<4xi8>, memref<2xi1>, memref<3xf16>,
                              memref<2xi16>, memref<1xf64>
}

// ZERO-D:      result[0]: memref<i32>
// ZERO-D-NEXT: {{^}}5{{$}}
// ZERO-D-NEXT: result[1]: memref<i32>
// ZERO-D-NEXT: {{^}}9{{$}}
// ZERO-D-NEXT: result[2]: memref<?x3xi32>
// ZERO-D-NEXT: {{^}}[]{{$}}
func.func @zero_d(%a: memref<i32>, %b: memref<i32>, %c: memref<?x3xi32>)
    -> (memref<i32>, memref<i32>, memref<?x3xi32>) {
  return %a, %b, %c : memref<i32>, memref<i32>, memref<?x3xi32>
}

// Results read through their descriptors: a strided window of the input
// (the program's offset and strides), a transposed view, and a global.
// RUN: %gpu-runner %s -e views --input=3x4xi32=0,1,2,3,10,11,12,13,20,21,22,23 | FileCheck %s --check-prefix=VIEWS
// VIEWS:      result[0]: memref<2x2xi32, strided<[4, 1], offset: 5>>
// VIEWS-NEXT: {{\[}}[11,   12],
// VIEWS-NEXT:  [21,   22]]
// VIEWS-NEXT: result[1]: memref<4x3xi32, strided<[1, 4]>>
// VIEWS-NEXT: {{\[}}[0,   10,   20],
// VIEWS-NEXT:  [1,   11,   21],
// VIEWS-NEXT:  [2,   12,   22],
// VIEWS-NEXT:  [3,   13,   23]]
// VIEWS-NEXT: result[2]: memref<2xf32>
// VIEWS-NEXT: [0.25,  4]
memref.global "private" constant @table : memref<2xf32> = dense<[0.25, 4.0]>
func.func @views(%m: memref<3x4xi32>)
    -> (memref<2x2xi32, strided<[4, 1], offset: 5>>,
        memref<4x3xi32, strided<[1, 4]>>, memref<2xf32>) {
  %copy = memref.alloc() : memref<3x4xi32>
  memref.copy %m, %copy : memref<3x4xi32> to memref<3x4xi32>
  %window = memref.subview %copy[1, 1] [2, 2] [1, 1]
      : memref<3x4xi32> to memref<2x2xi32, strided<[4, 1], offset: 5>>
  %t = memref.transpose %m (i, j) -> (j, i)
      : memref<3x4xi32> to memref<4x3xi32, strided<[1, 4]>>
  %g = memref.get_global @table : memref<2xf32>
  return %window, %t, %g : memref<2x2xi32, strided<[4, 1], offset: 5>>,
                           memref<4x3xi32, strided<[1, 4]>>, memref<2xf32>
}
