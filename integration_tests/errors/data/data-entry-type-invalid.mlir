// Without --entry-point-result, an entry point whose parameters or results
// are of a type values cannot be given or read for is an error at the
// function, when the program is compiled.
// RUN: %expect-exit-1 %gpu-runner %s -e tensor 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: %expect-exit-1 %gpu-runner %s -e vector 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: %expect-exit-1 %gpu-runner %s -e strided 2>&1 | FileCheck %s --check-prefix=STRIDED

// An unranked tensor, which bufferization makes an unranked memref, is
// named as written.
// TENSOR: data-entry-type-invalid.mlir:[[# @LINE + 1]]:1: error: entry point 'tensor': argument 0 is 'tensor<*xf32>', which --input cannot give: it gives index, integer (i1 to i64) and float (f16, f32, f64) scalars, and memrefs of them with an identity layout, or ranked tensors of them
func.func private @tensor(%t: tensor<*xf32>) {
  return
}

// VECTOR: data-entry-type-invalid.mlir:[[# @LINE + 1]]:1: error: entry point 'vector': result 0 is 'vector<4xf32>', which gpu-runner cannot read: it reads index, integer (i1 to i64) and float (f16, f32, f64) scalars, and memrefs of them with an identity layout, or ranked tensors of them (or any strided layout)
func.func @vector() -> vector<4xf32> {
  %v = arith.constant dense<1.0> : vector<4xf32>
  return %v : vector<4xf32>
}

// STRIDED: data-entry-type-invalid.mlir:[[# @LINE + 1]]:1: error: entry point 'strided': argument 0 is 'memref<4xf32, strided<[2]>>', which --input cannot give
func.func @strided(%m: memref<4xf32, strided<[2]>>) {
  return
}
