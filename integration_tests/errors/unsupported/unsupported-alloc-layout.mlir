// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: unsupported-alloc-layout.mlir:[[# @LINE + 1]]:8: error: 'gpu.alloc' cannot be lowered: only memrefs with the identity layout can be allocated; allocate one and take a view of it with memref.subview or memref.reinterpret_cast
  %m = gpu.alloc () : memref<4x4xf32, strided<[8, 1]>>
  gpu.dealloc %m : memref<4x4xf32, strided<[8, 1]>>
  return
}
