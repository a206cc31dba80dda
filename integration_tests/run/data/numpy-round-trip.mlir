// NumPy itself reads and writes the files: inputs saved by numpy.save, and
// outputs read by numpy.load with the dtype, shape and values the program
// computes.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir %t
// RUN: %system-python %S/Inputs/numpy-round-trip.py write %t
// RUN: %gpu-runner %s --input=@%t/a.npy --input=@%t/b.npy --input=@%t/c.npy --input=@%t/d.npy --input=@%t/e.npy --input=@%t/f.npy --output=@%t/out-a.npy --output=@%t/out-b.npy --output=@%t/out-c.npy --output=@%t/out-d.npy --output=@%t/out-e.npy --output=@%t/out-f.npy
// RUN: %system-python %S/Inputs/numpy-round-trip.py check %t | FileCheck %s

// CHECK:      a: float32 (2, 3) equal
// CHECK-NEXT: b: int64 (4,) equal
// CHECK-NEXT: c: bool (3,) equal
// CHECK-NEXT: d: float16 (3,) equal
// CHECK-NEXT: e: int8 (4,) equal
// CHECK-NEXT: f: float64 () equal

#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: memref<2x3xf32>, %b: memref<?xi64>, %c: memref<3xi1>,
                %d: memref<3xf16>, %e: memref<4xi8>, %f: f64)
    -> (memref<2x3xf32>, memref<?xi64>, memref<3xi1>, memref<3xf16>,
        memref<4xi8>, f64) {
  linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel", "parallel"]} outs(%a : memref<2x3xf32>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%b : memref<?xi64>) {
  ^bb0(%x: i64):
    %one = arith.constant 1 : i64
    %y = arith.addi %x, %one : i64
    linalg.yield %y : i64
  }
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%c : memref<3xi1>) {
  ^bb0(%x: i1):
    %true = arith.constant true
    %y = arith.xori %x, %true : i1
    linalg.yield %y : i1
  }
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%d : memref<3xf16>) {
  ^bb0(%x: f16):
    %y = arith.negf %x : f16
    linalg.yield %y : f16
  }
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%e : memref<4xi8>) {
  ^bb0(%x: i8):
    %one = arith.constant 1 : i8
    %y = arith.addi %x, %one : i8
    linalg.yield %y : i8
  }
  %three = arith.constant 3.0 : f64
  %g = arith.mulf %f, %three : f64
  return %a, %b, %c, %d, %e, %g
      : memref<2x3xf32>, memref<?xi64>, memref<3xi1>, memref<3xf16>,
        memref<4xi8>, f64
}
