// --input values that do not fit the entry point, files that cannot be
// read, and values that do not parse: each an error with exit status 1,
// at the entry point where it is about the entry point, and nothing runs.
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 --input=2 --input=3x5xf32=0 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 --input=2 --input=4x5xi32=0 2>&1 | FileCheck %s --check-prefix=ELEMENT
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 --input=2 --input=7 2>&1 | FileCheck %s --check-prefix=SCALAR-FOR-MEMREF
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1.5 --input=2 --input=4x1xf32=0 2>&1 | FileCheck %s --check-prefix=LITERAL
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 --input=f64=2 --input=4x1xf32=0 2>&1 | FileCheck %s --check-prefix=TYPED
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 --input=2 --input=4x1xf32=0 --output=- 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// RUN: %expect-exit-1 %gpu-runner %s -e three --input=1 --input=2 --input=4x1xf32=0 --expected-output=1 --expected-output=2 --expected-output=3 2>&1 | FileCheck %s --check-prefix=EXPECTED
// RUN: %expect-exit-1 %gpu-runner %s -e three --entry-point-result=void --input=1 2>&1 | FileCheck %s --check-prefix=LEGACY

// Files.
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-short.npy '<f4' 4,4 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --drop 4
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-short.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED -DFILE=%t-short.npy
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-long.npy '<f4' 2 1,2 --extra 3
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-long.npy 2>&1 | FileCheck %s --check-prefix=LONG -DFILE=%t-long.npy
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-fortran.npy '<f4' 2,2 1,2,3,4 --fortran
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-big.npy '>f4' 2 1,2
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-big.npy 2>&1 | FileCheck %s --check-prefix=BIG-ENDIAN
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-c8.npy '<c8' 1 ''
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-c8.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-dict.npy '<f4' 1 1 --header "{'descr': '<f4', 'shape': (1,), }"
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-dict.npy 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: printf 'not numpy' > %t-text.npy
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-text.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t-missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf 'abc' > %t.bin
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=4x4xf32=@%t.bin 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=@%t.bin 2>&1 | FileCheck %s --check-prefix=NOT-NPY

// Values that do not parse, with their column.
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=2x3xf32=1,2,x,4,5,6 2>&1 | FileCheck %s --check-prefix=BAD-ELEMENT
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=2x3xf32=1,2 2>&1 | FileCheck %s --check-prefix=TOO-FEW
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=2x3xf8=1 2>&1 | FileCheck %s --check-prefix=BAD-TYPE
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=2x3f32=1 2>&1 | FileCheck %s --check-prefix=NO-X
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=4xi8=1,2,300,4 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=4xi32=1,,3,4 2>&1 | FileCheck %s --check-prefix=MISSING-VALUE
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=abc 2>&1 | FileCheck %s --check-prefix=NOT-A-NUMBER
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=i32=1,2 2>&1 | FileCheck %s --check-prefix=SCALAR-LIST
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --input=4xf32=1e99 2>&1 | FileCheck %s --check-prefix=F32-RANGE
// RUN: %expect-exit-1 %gpu-runner %s -e matrix --expected-output=2xi32=1.5 2>&1 | FileCheck %s --check-prefix=EXPECTED-PARSE

// COUNT: data-inputs-invalid.mlir:[[# @LINE + 9]]:1: error: entry point 'three' takes 3 arguments, but 1 --input value was given
// SHAPE: data-inputs-invalid.mlir:[[# @LINE + 8]]:1: error: argument 2: expected memref<4x?xf32>, got 3x5xf32
// ELEMENT: data-inputs-invalid.mlir:[[# @LINE + 7]]:1: error: argument 2: expected memref<4x?xf32>, got 4x5xi32
// SCALAR-FOR-MEMREF: data-inputs-invalid.mlir:[[# @LINE + 6]]:1: error: argument 2: expected memref<4x?xf32>, got the scalar 7
// LITERAL: data-inputs-invalid.mlir:[[# @LINE + 5]]:1: error: argument 0: expected i32, got '1.5': '1.5' is not an integer (i32)
// TYPED: data-inputs-invalid.mlir:[[# @LINE + 4]]:1: error: argument 1: expected f32, got the scalar f64=2
// OUTPUTS: data-inputs-invalid.mlir:[[# @LINE + 3]]:1: error: entry point 'three' has 2 results, but --output was given 1 time: give one for each result
// EXPECTED: data-inputs-invalid.mlir:[[# @LINE + 2]]:1: error: entry point 'three' has 2 results, but --expected-output was given 3 times
// LEGACY: error: --entry-point-result calls the entry point as mlir-runner does, without arguments; leave it out to give --input, --output, --expected-output or --launch
func.func @three(%a: i32, %b: f32, %m: memref<4x?xf32>) -> (i32, memref<4x?xf32>) {
  return %a, %m : i32, memref<4x?xf32>
}

// TRUNCATED: error: [[FILE]]: header says 4x4 f32 (64 bytes of data) but the file has 60
// LONG: error: [[FILE]]: header says 2 f32 (8 bytes of data) but the file has 11
// FORTRAN: error: {{.*}}-fortran.npy: the data is in Fortran order; save it in C order, as numpy.ascontiguousarray(array)
// BIG-ENDIAN: error: {{.*}}-big.npy: the data is big-endian ('>f4'); save it little-endian, as array.astype('<f4')
// DTYPE: error: {{.*}}-c8.npy: the dtype '<c8' is none of those gpu-runner reads: bool, int8 to int64, uint8 to uint64, float16, float32, float64
// HEADER: error: {{.*}}-dict.npy: not a NumPy file: the header lacks 'fortran_order'
// MAGIC: error: {{.*}}-text.npy: not a NumPy file: it does not start with NumPy's magic string
// MISSING: error: {{.*}}-missing.npy: cannot read it: No such file or directory
// RAW: error: {{.*}}.bin: 4x4xf32 is 64 bytes, but the file has 3
// NOT-NPY: error: --input=@{{.*}}.bin: column 2: '{{.*}}.bin' is not a .npy file; give raw bytes with their shape and type, as in 4xf32=@{{.*}}.bin
// BAD-ELEMENT: error: --input=2x3xf32=1,2,x,4,5,6: column 13: 'x' is not an f32 value
// TOO-FEW: error: --input=2x3xf32=1,2: column 9: 2x3xf32 takes 6 values (or one, for all of them), but 2 were given
// BAD-TYPE: error: --input=2x3xf8=1: column 5: 'f8' is not an element type (i1, i8, i16, i32, i64, index, f16, f32, f64)
// NO-X: error: --input=2x3f32=1: column 4: expected 'x' after the dimension 3
// RANGE: error: --input=4xi8=1,2,300,4: column 10: '300' is out of range for i8
// MISSING-VALUE: error: --input=4xi32=1,,3,4: column 9: a value is missing
// NOT-A-NUMBER: error: --input=abc: column 1: 'abc' is not a number; a shaped value is written SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4
// SCALAR-LIST: error: --input=i32=1,2: column 7: a scalar takes one value, but 2 were given
// F32-RANGE: error: --input=4xf32=1e99: column 7: '1e99' is out of range for f32
// EXPECTED-PARSE: error: --expected-output=2xi32=1.5: column 7: '1.5' is not an integer (i32)
func.func @matrix(%m: memref<?x?xf32>) {
  return
}
