// RUN: %gpu-runner-opt --gpu-runner-host-pipeline %s | FileCheck %s

// The host pipeline leaves nothing but the LLVM dialect: loops, views, host
// memory and the gpu runtime ops are all lowered. (The op names inside the
// location strings are followed by '@'.)
// CHECK-NOT: {{ (func|memref|scf|affine|arith|cf|gpu|builtin)\.[a-z_]+[ (]}}
// CHECK:     llvm.func @main()
// CHECK:       llvm.call @mgpuMemAllocAt
// CHECK:       llvm.call @malloc
// CHECK:       llvm.call @mgpuMemcpyStridedAt
// CHECK-NOT: {{ (func|memref|scf|affine|arith|cf|gpu|builtin)\.[a-z_]+[ (]}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %dev = gpu.alloc () : memref<4x4xf32>
  %rows = memref.subview %dev[1, 0] [2, 4] [2, 1]
      : memref<4x4xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %host = memref.alloc() : memref<2x4xf32>
  %t = gpu.memcpy async %host, %rows : memref<2x4xf32>, memref<2x4xf32, strided<[8, 1], offset: 4>>
  gpu.wait [%t]
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> index {
    %next = affine.apply affine_map<(a, i) -> (a + i * 2)>(%acc, %i)
    scf.yield %next : index
  }
  gpu.dealloc %dev : memref<4x4xf32>
  return
}
