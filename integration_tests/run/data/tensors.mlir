// An entry point on tensors takes --input and gives --output and
// --expected-output as one on memrefs does: bufferization makes its tensors
// memrefs of the identity layout, and each result is named by the type the
// program wrote.
// RUN: %gpu-runner %s -e add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40 | FileCheck %s
// RUN: %gpu-runner %s -e add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40 --expected-output=4xf32=11,22,33,44 --expected-output=4xf32=1,2,3,4 | FileCheck %s --check-prefix=MATCH
// RUN: %expect-exit-1 %gpu-runner %s -e add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40 --expected-output=4xf32=11,22,33,45 --expected-output=4xf32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: %expect-exit-1 %gpu-runner %s -e add --input=3xf32=1,2,3 --input=4xf32=10,20,30,40 2>&1 | FileCheck %s --check-prefix=SHAPE

// CHECK:      result[0]: tensor<4xf32>
// CHECK-NEXT: [11,  22,  33,  44]
// CHECK-NEXT: result[1]: tensor<?xf32>
// CHECK-NEXT: [1,  2,  3,  4]
// MATCH: expected outputs: 2 results (8 elements) matched
// MISMATCH: error: result[0]: 1 of 4 elements differ
// SHAPE: error: argument 0: expected tensor<4xf32>, got 3xf32

// The sum, and the first argument returned as it came, with a dynamic size.
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<?xf32>) {
  %init = tensor.empty() : tensor<4xf32>
  %sum = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
      outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %dynamic = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  return %sum, %dynamic : tensor<4xf32>, tensor<?xf32>
}
