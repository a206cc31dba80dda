// --passes runs upstream's passes on the program before gpu-runner's own
// lowering, as `mlir-opt -one-shot-bufferize ... | mlir-runner` would: here
// a program on tensors, bufferized, then copied to the device and back.
// Without the passes gpu-runner bufferizes it by itself (tensors.mlir).
// The pipeline may be written with the module anchor or without; the same
// program with other passes is another entry in the compile cache.
// RUN: rm -rf %t
// RUN: %gpu-runner --cache-dir=%t --passes='one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-loops)' %s | FileCheck %s
// RUN: %gpu-runner --cache-dir=%t --passes='builtin.module(one-shot-bufferize{bufferize-function-boundaries}, func.func(convert-linalg-to-loops))' %s | FileCheck %s
// RUN: %gpu-runner --cache-dir=%t --passes='one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-affine-loops)' --timing %s 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS

// CHECK: 3.5
// CHECK-NEXT: 3.5
// MISS: miss

func.func private @printF32(f32)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %value = arith.constant 3.5 : f32
  %init = tensor.empty() : tensor<4xf32>
  %filled = linalg.fill ins(%value : f32) outs(%init : tensor<4xf32>)
      -> tensor<4xf32>
  %host = bufferization.to_buffer %filled : tensor<4xf32> to memref<4xf32>
  %device = gpu.alloc () : memref<4xf32>
  gpu.memcpy %device, %host : memref<4xf32>, memref<4xf32>
  %back = memref.alloc() : memref<4xf32>
  gpu.memcpy %back, %device : memref<4xf32>, memref<4xf32>
  gpu.dealloc %device : memref<4xf32>
  %first = memref.load %back[%c0] : memref<4xf32>
  %last = memref.load %back[%c3] : memref<4xf32>
  call @printF32(%first) : (f32) -> ()
  call @printNewline() : () -> ()
  call @printF32(%last) : (f32) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %back : memref<4xf32>
  return
}
