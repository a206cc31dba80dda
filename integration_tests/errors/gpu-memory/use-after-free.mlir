// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %host = memref.alloc() : memref<16xf32>
  %dev = gpu.alloc () : memref<16xf32>
  gpu.dealloc %dev : memref<16xf32>
  // CHECK: use-after-free.mlir:[[# @LINE + 1]]:3: error: gpu.memcpy: {{.*}}use after free{{.*}}use-after-free.mlir:5:10{{.*}}use-after-free.mlir:6:3
  gpu.memcpy %dev, %host : memref<16xf32>, memref<16xf32>
  return
}
