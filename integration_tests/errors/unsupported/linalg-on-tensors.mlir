// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

// linalg on tensors needs bufferization, which gpu-runner does not do by
// itself: the op is named with what to do instead, before anything runs.
// run/passes.mlir runs this program with the passes it names. Passes that
// leave the tensors get the same error.
// RUN: %expect-exit-1 %gpu-runner --passes=cse %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

func.func private @printF32(f32)

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %t = arith.constant dense<1.0> : tensor<4xf32>
  // CHECK: linalg-on-tensors.mlir:[[# @LINE + 1]]:8: error: 'linalg.fill' works on tensors, which gpu-runner does not bufferize by itself: write it on memrefs, or bufferize the program first (--passes='one-shot-bufferize{bufferize-function-boundaries}')
  %f = linalg.fill ins(%zero : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %f[%c0] : tensor<4xf32>
  call @printF32(%v) : (f32) -> ()
  return
}
