// gpu.printf from several threads of several blocks. Blocks run in parallel,
// so lines come in any order, as on a GPU: sort them.
// RUN: %gpu-runner %s | sort | FileCheck %s

// CHECK:      block 0 thread 0: 0 -1 0.500000
// CHECK-NEXT: block 0 thread 1: 1 -1 1.500000
// CHECK-NEXT: block 0 thread 2: 2 -1 2.500000
// CHECK-NEXT: block 1 thread 0: 3 -1 3.500000
// CHECK-NEXT: block 1 thread 1: 4 -1 4.500000
// CHECK-NEXT: block 1 thread 2: 5 -1 5.500000
// CHECK-NOT:  block

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<(b, t) -> (b * 3 + t)>(%bx, %tx)
    %i32 = arith.index_cast %i : index to i32
    %minus = arith.constant -1 : i8
    %f = arith.sitofp %i32 : i32 to f32
    %half = arith.constant 0.5 : f32
    %g = arith.addf %f, %half : f32
    gpu.printf "block %ld thread %ld: %d %d %f\n", %bx, %tx, %i32, %minus, %g : index, index, i32, i8, f32
    gpu.terminator
  }
  return
}
