// A file cut off in the middle of an op: the error is at its end, and says
// the input may be truncated.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// CHECK: truncated-file.mlir:[[# @LINE + 6]]:17: error: expected SSA operand
// CHECK: truncated-file.mlir:[[# @LINE + 5]]:17: note: the input ends here: it may be truncated

func.func @main() {
  %c1 = arith.constant 1 : index
  %m = gpu.alloc (%c1) : memref<?xf32>
  gpu.memcpy %m, 
