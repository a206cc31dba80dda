// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %dev = gpu.alloc () : memref<16xf32>
  gpu.dealloc %dev : memref<16xf32>
  // CHECK: double-free.mlir:[[# @LINE + 1]]:3: error: gpu.dealloc: {{.*}}double free{{.*}}double-free.mlir:5:3
  gpu.dealloc %dev : memref<16xf32>
  return
}
