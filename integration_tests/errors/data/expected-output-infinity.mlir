// An expected infinity matches only the same infinity, whatever --atol and
// --rtol say, as numpy.allclose compares them (docs/data.md): a finite
// value, or the other infinity, is a mismatch and the run exits with 1.
// RUN: %gpu-runner %s --input=3xf32=inf,-inf,1 --expected-output=3xf32=inf,-inf,1 | FileCheck %s --check-prefix=SAME
// RUN: %expect-exit-1 %gpu-runner %s --input=3xf32=1,2,3 --expected-output=3xf32=inf,-inf,3 2>&1 | FileCheck %s --check-prefix=FINITE
// RUN: %expect-exit-1 %gpu-runner %s --input=3xf32=-inf,inf,3 --expected-output=3xf32=inf,-inf,3 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %expect-exit-1 %gpu-runner %s --input=3xf32=inf,-inf,3 --expected-output=3xf32=1,2,3 --atol=1e30 --rtol=10 2>&1 | FileCheck %s --check-prefix=GOT-INF

// SAME: expected outputs: 1 result (3 elements) matched
// FINITE:      error: result[0]: 2 of 3 elements differ from the expected value
// FINITE-NEXT:   [0]: got 1, expected inf
// FINITE-NEXT:   [1]: got 2, expected -inf
// FINITE-NOT: matched
// OTHER:      error: result[0]: 2 of 3 elements differ from the expected value
// OTHER-NEXT:   [0]: got -inf, expected inf
// OTHER-NEXT:   [1]: got inf, expected -inf
// GOT-INF:      error: result[0]: 2 of 3 elements differ from the expected value
// GOT-INF-NEXT:   [0]: got inf, expected 1
// GOT-INF-NEXT:   [1]: got -inf, expected 2

func.func @main(%v: memref<?xf32>) -> memref<?xf32> {
  return %v : memref<?xf32>
}
