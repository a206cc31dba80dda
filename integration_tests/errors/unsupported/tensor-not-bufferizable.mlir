// gpu-runner bufferizes code on tensors by itself; an op that has no
// bufferization is reported at the op, with what to write instead. The
// passes the note names make the program run (the last RUN line).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out
// RUN: %gpu-runner --passes='func.func(convert-elementwise-to-linalg)' %s | FileCheck %s --check-prefix=RUNS

// RUNS: 2
func.func @main() {
  %ones = arith.constant dense<1.0> : tensor<4xf32>
  // CHECK: tensor-not-bufferizable.mlir:[[# @LINE + 2]]:11: error: op was not bufferized
  // CHECK: tensor-not-bufferizable.mlir:[[# @LINE + 1]]:11: note: gpu-runner bufferizes a program's tensors, and this op has no bufferization: write it on memrefs, or with linalg ops (--passes='func.func(convert-elementwise-to-linalg)' makes linalg ops of arith and math ops on tensors)
  %twos = arith.addf %ones, %ones : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %first = tensor.extract %twos[%c0] : tensor<4xf32>
  vector.print %first : f32
  return
}
