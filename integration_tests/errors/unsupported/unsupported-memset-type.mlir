// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %m = gpu.alloc () : memref<4xi1>
  %v = arith.constant true
  // CHECK: unsupported-memset-type.mlir:[[# @LINE + 1]]:3: error: 'gpu.memset' cannot be lowered: elements of type 'i1' are not supported; gpu.memset takes 8, 16, 32 or 64-bit integers, floats or index
  gpu.memset %m, %v : memref<4xi1>, i1
  gpu.dealloc %m : memref<4xi1>
  return
}
