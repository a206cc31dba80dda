// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %host = memref.alloc() : memref<16xf32>
  // CHECK: dealloc-host-memory.mlir:[[# @LINE + 1]]:3: error: gpu.dealloc: 0x{{[0-9a-f]+}} is not device memory: it was not allocated by gpu.alloc
  gpu.dealloc %host : memref<16xf32>
  return
}
