// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %dev = gpu.alloc () : memref<8xi32>
  gpu.dealloc %dev : memref<8xi32>
  %v = arith.constant 7 : i32
  // CHECK: memset-after-free.mlir:[[# @LINE + 1]]:3: error: gpu.memset: {{.*}}use after free{{.*}}memset-after-free.mlir:4:10{{.*}}memset-after-free.mlir:5:3
  gpu.memset %dev, %v : memref<8xi32>, i32
  return
}
