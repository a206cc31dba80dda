// arith.maximumf and arith.minimumf are IEEE 754-2019's maximum and minimum
// (llvm.maximum, llvm.minimum): -0 is below +0, and a NaN operand gives NaN.
// The operands come from the command line, so nothing folds them; each is
// taken in both orders, as scalars and as vectors, in f32 and f64.
// RUN: %gpu-runner %s --input=4xf32=0,-0,1,nan --input=4xf32=-0,0,nan,1 | FileCheck %s

func.func @both(%a: vector<4xf32>, %b: vector<4xf32>) {
  %max = arith.maximumf %a, %b : vector<4xf32>
  %min = arith.minimumf %a, %b : vector<4xf32>
  vector.print %max : vector<4xf32>
  vector.print %min : vector<4xf32>
  %x = vector.extract %a[0] : f32 from vector<4xf32>
  %y = vector.extract %b[0] : f32 from vector<4xf32>
  %smax = arith.maximumf %x, %y : f32
  %smin = arith.minimumf %x, %y : f32
  vector.print %smax : f32
  vector.print %smin : f32
  %wa = arith.extf %a : vector<4xf32> to vector<4xf64>
  %wb = arith.extf %b : vector<4xf32> to vector<4xf64>
  %wmax = arith.maximumf %wa, %wb : vector<4xf64>
  %wmin = arith.minimumf %wa, %wb : vector<4xf64>
  vector.print %wmax : vector<4xf64>
  vector.print %wmin : vector<4xf64>
  return
}

func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %va = vector.load %a[%c0] : memref<4xf32>, vector<4xf32>
  %vb = vector.load %b[%c0] : memref<4xf32>, vector<4xf32>
  // CHECK:      ( 0, 0, nan, nan )
  // CHECK-NEXT: ( -0, -0, nan, nan )
  // CHECK-NEXT: 0
  // CHECK-NEXT: -0
  // CHECK-NEXT: ( 0, 0, nan, nan )
  // CHECK-NEXT: ( -0, -0, nan, nan )
  call @both(%va, %vb) : (vector<4xf32>, vector<4xf32>) -> ()
  // The other order: (-0, 0, nan, 1) against (0, -0, 1, nan).
  // CHECK-NEXT: ( 0, 0, nan, nan )
  // CHECK-NEXT: ( -0, -0, nan, nan )
  // CHECK-NEXT: 0
  // CHECK-NEXT: -0
  // CHECK-NEXT: ( 0, 0, nan, nan )
  // CHECK-NEXT: ( -0, -0, nan, nan )
  call @both(%vb, %va) : (vector<4xf32>, vector<4xf32>) -> ()
  return
}
