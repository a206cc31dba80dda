// --expected-output compares each result: integers exactly, floats within
// atol + rtol x |expected|, NaN equal to NaN only with --nan-equal. A
// match prints one line; a mismatch lists the first elements that differ
// and exits with status 1.
// RUN: %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=4xf32=2,4,6,8 --expected-output=7 | FileCheck %s --check-prefix=MATCH
// RUN: %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=4xf32=2,4,6,8.00001 --expected-output=i32=7 | FileCheck %s --check-prefix=WITHIN
// RUN: %expect-exit-1 %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=4xf32=2,4,6,8.001 --expected-output=7 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=4xf32=2,4,6,8.001 --expected-output=7 --atol=0.01 | FileCheck %s --check-prefix=ATOL
// RUN: %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=4xf32=2,4,6,8.001 --expected-output=7 --rtol=0.001 --atol=0 | FileCheck %s --check-prefix=RTOL
// RUN: %expect-exit-1 %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=4xf32=2,4,6,8 --expected-output=8 2>&1 | FileCheck %s --check-prefix=INTEGER
// RUN: %expect-exit-1 %gpu-runner %s --input=4xf32=nan,2,inf,4 --input=7 --expected-output=4xf32=nan,4,inf,8 --expected-output=7 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: %gpu-runner %s --input=4xf32=nan,2,inf,4 --input=7 --expected-output=4xf32=nan,4,inf,8 --expected-output=7 --nan-equal | FileCheck %s --check-prefix=NAN-EQUAL
// RUN: %expect-exit-1 %gpu-runner %s --input=4xf32=1,2,3,4 --input=7 --expected-output=2x2xf32=2,4,6,8 --expected-output=7 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %expect-exit-1 %gpu-runner %s --input=12xf32=0 --input=7 --expected-output=12xf32=1 --expected-output=7 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: %expect-exit-1 %gpu-runner %s --input=4xf32=0 --input=7 --expected-output=4xf32=0 --expected-output=7 --atol=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// MATCH:      result[0]: memref<?xf32>
// MATCH-NEXT: [2,  4,  6,  8]
// MATCH-NEXT: result[1]: i32
// MATCH-NEXT: 7
// MATCH-NEXT: expected outputs: 2 results (5 elements) matched, floats within atol 1e-08 + rtol 1e-05 x |expected|
// WITHIN: expected outputs: 2 results (5 elements) matched
// OUTSIDE:      error: result[0]: 1 of 4 elements differ from the expected value (compared within atol 1e-08 + rtol 1e-05 x |expected|)
// OUTSIDE-NEXT:   [3]: got 8, expected 8.001 (difference -0.00{{[0-9]+}})
// OUTSIDE-NOT: expected outputs
// ATOL: expected outputs: 2 results (5 elements) matched, floats within atol 0.01 + rtol 1e-05 x |expected|
// RTOL: expected outputs: 2 results (5 elements) matched, floats within atol 0 + rtol 0.001 x |expected|
// INTEGER: error: result[1]: 1 of 1 element differs from the expected value (compared exactly)
// INTEGER-NEXT: got 7, expected 8 (difference -1)
// NAN:      error: result[0]: 1 of 4 elements differ from the expected value (compared within atol 1e-08 + rtol 1e-05 x |expected|)
// NAN-NEXT:   [0]: got nan, expected nan (difference nan)
// NAN-EQUAL: expected outputs: 2 results (5 elements) matched, floats within atol 1e-08 + rtol 1e-05 x |expected|, NaN equal to NaN
// SHAPE: error: result[0]: expected 2x2xf32, got 4xf32
// MANY:      error: result[0]: 12 of 12 elements differ
// MANY-NEXT:   [0]: got 0, expected 1 (difference -1)
// MANY-COUNT-9: got 0, expected 1
// MANY-NEXT:   ... and 2 more
// NEGATIVE: error: --atol and --rtol must be 0 or more

// Doubles each element; returns the scalar as it came.
func.func @main(%v: memref<?xf32>, %x: i32) -> (memref<?xf32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %v[%i] : memref<?xf32>
    %b = arith.addf %a, %a : f32
    memref.store %b, %v[%i] : memref<?xf32>
  }
  return %v, %x : memref<?xf32>, i32
}
