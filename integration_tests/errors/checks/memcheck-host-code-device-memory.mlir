// memcheck: host code that touches device memory, which a GPU's host cannot
// (it faults), is an error at the op, whether it reads, writes, copies or
// hands the memory to a function; memory allocated host_shared is the
// host's to touch. Each split is one mistake.
// RUN: %expect-exit-1 %gpu-runner %s --split-input-file --check=memcheck 2>&1 | FileCheck %s

// A plain load; the host_shared load before it is fine.
// CHECK: memcheck-host-code-device-memory.mlir:[[# @LINE + 8]]:8: error: memcheck: memref.load: host code reads device memory: the 16-byte allocation made by gpu.alloc at {{.*}}memcheck-host-code-device-memory.mlir:[[# @LINE + 6]]:8; on a GPU, the host cannot touch device memory (it faults): copy the data with gpu.memcpy, or allocate it with gpu.alloc host_shared
// CHECK-NEXT: --check=memcheck: 1 error (memcheck 1)
func.func @main() {
  %c0 = arith.constant 0 : index
  %shared = gpu.alloc host_shared () : memref<4xf32>
  %a = memref.load %shared[%c0] : memref<4xf32>
  %d = gpu.alloc () : memref<4xf32>
  gpu.memset %d, %a : memref<4xf32>, f32
  %b = memref.load %d[%c0] : memref<4xf32>
  memref.store %b, %shared[%c0] : memref<4xf32>
  return
}

// -----

// A store through a view.
// CHECK: memcheck-host-code-device-memory.mlir:[[# @LINE + 6]]:3: error: memcheck: memref.store: host code writes device memory: the 64-byte allocation made by gpu.alloc at {{.*}}:[[# @LINE + 4]]:8;
func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %d = gpu.alloc () : memref<16xf32>
  %view = memref.subview %d[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.store %one, %view[%c0] : memref<4xf32, strided<[1], offset: 4>>
  gpu.dealloc %d : memref<16xf32>
  return
}

// -----

// A copy from the device with memref.copy instead of gpu.memcpy.
// CHECK: memcheck-host-code-device-memory.mlir:[[# @LINE + 6]]:3: error: memcheck: memref.copy: host code reads device memory: the 32-byte allocation made by gpu.alloc at {{.*}}:[[# @LINE + 4]]:8;
func.func @main() {
  %zero = arith.constant 0 : i32
  %host = memref.alloc() : memref<8xi32>
  %d = gpu.alloc () : memref<8xi32>
  gpu.memset %d, %zero : memref<8xi32>, i32
  memref.copy %d, %host : memref<8xi32> to memref<8xi32>
  return
}

// -----

// Printing device memory: printMemrefI32 reads it.
// CHECK: memcheck-host-code-device-memory.mlir:[[# @LINE + 7]]:3: error: memcheck: func.call: host code passes device memory to a function: the 32-byte allocation made by gpu.alloc at {{.*}}:[[# @LINE + 4]]:8;
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %zero = arith.constant 0 : i32
  %d = gpu.alloc () : memref<8xi32>
  gpu.memset %d, %zero : memref<8xi32>, i32
  %cast = memref.cast %d : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  return
}

// -----

// A linalg op on device memory, and memory already freed.
// CHECK: memcheck-host-code-device-memory.mlir:[[# @LINE + 6]]:3: error: memcheck: linalg.fill: host code writes device memory: the 32-byte allocation made by gpu.alloc at {{.*}}:[[# @LINE + 3]]:8, freed by gpu.dealloc at {{.*}}:[[# @LINE + 5]]:3;
func.func @main() {
  %zero = arith.constant 0 : i32
  %d = gpu.alloc () : memref<8xi32>
  gpu.memset %d, %zero : memref<8xi32>, i32
  gpu.dealloc %d : memref<8xi32>
  linalg.fill ins(%zero : i32) outs(%d : memref<8xi32>)
  return
}
