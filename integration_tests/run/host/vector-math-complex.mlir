// RUN: %gpu-runner %s | FileCheck %s

// vector, math, complex, index, ub and cf ops in host code. Exact values
// are checked exactly; transcendental ones to the digits libm and LLVM's
// intrinsics agree on.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @show(%v: f32) {
  call @printF32(%v) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  // vector: contraction, transpose, reductions, scan, shuffles, masks.
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  %zero = arith.constant dense<0.0> : vector<2x2xf32>
  %p = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} %m, %m, %zero : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  // CHECK: ( ( 7, 10 ), ( 15, 22 ) )
  vector.print %p : vector<2x2xf32>
  %t = vector.transpose %p, [1, 0] : vector<2x2xf32> to vector<2x2xf32>
  // CHECK-NEXT: ( ( 7, 15 ), ( 10, 22 ) )
  vector.print %t : vector<2x2xf32>
  %v = arith.constant dense<[3, -1, 4, 1, -5, 9]> : vector<6xi32>
  %sum = vector.reduction <add>, %v : vector<6xi32> into i32
  %max = vector.reduction <maxsi>, %v : vector<6xi32> into i32
  // CHECK-NEXT: 11
  vector.print %sum : i32
  // CHECK-NEXT: 9
  vector.print %max : i32
  %init = arith.constant dense<0> : vector<i32>
  %scan, %total = vector.scan <add>, %v, %init {inclusive = true, reduction_dim = 0} : vector<6xi32>, vector<i32>
  // CHECK-NEXT: ( 3, 2, 6, 7, 2, 11 )
  vector.print %scan : vector<6xi32>
  %s = vector.shuffle %v, %v [5, 0, 11, 6] : vector<6xi32>, vector<6xi32>
  // CHECK-NEXT: ( 9, 3, 9, 3 )
  vector.print %s : vector<4xi32>
  %c3 = arith.constant 3 : index
  %mask = vector.create_mask %c3 : vector<6xi1>
  %fill = arith.constant dense<100> : vector<6xi32>
  %sel = arith.select %mask, %v, %fill : vector<6xi1>, vector<6xi32>
  // CHECK-NEXT: ( 3, -1, 4, 100, 100, 100 )
  vector.print %sel : vector<6xi32>

  // math: exact ones, then libm and intrinsics.
  %x = arith.constant 1.5 : f32
  %y = arith.constant -2.0 : f32
  %three = arith.constant 3 : i32
  %fpowi = math.fpowi %x, %three : f32, i32
  %fma = math.fma %x, %x, %y : f32
  %copysign = math.copysign %x, %y : f32
  %clamped = math.clampf %y to [%x, %x] : f32
  %i = arith.constant 7 : i64
  %ipowi = math.ipowi %i, %i : i64
  %ctlz = math.ctlz %i : i64
  // CHECK-NEXT: 3.375
  call @show(%fpowi) : (f32) -> ()
  // CHECK-NEXT: 0.25
  call @show(%fma) : (f32) -> ()
  // CHECK-NEXT: -1.5
  call @show(%copysign) : (f32) -> ()
  // CHECK-NEXT: 1.5
  call @show(%clamped) : (f32) -> ()
  // CHECK-NEXT: 823543
  call @printI64(%ipowi) : (i64) -> ()
  call @printNewline() : () -> ()
  // CHECK-NEXT: 61
  call @printI64(%ctlz) : (i64) -> ()
  call @printNewline() : () -> ()
  %sin = math.sin %x : f32
  %atan2 = math.atan2 %x, %y : f32
  %erf = math.erf %x : f32
  %tanh = math.tanh %x : f32
  %cbrt = math.cbrt %x : f32
  // CHECK-NEXT: 0.99749
  call @show(%sin) : (f32) -> ()
  // CHECK-NEXT: 2.49809
  call @show(%atan2) : (f32) -> ()
  // CHECK-NEXT: 0.966105
  call @show(%erf) : (f32) -> ()
  // CHECK-NEXT: 0.905148
  call @show(%tanh) : (f32) -> ()
  // CHECK-NEXT: 1.14471
  call @show(%cbrt) : (f32) -> ()

  // complex: exp(i pi / 2) = i, and |3 + 4i| = 5.
  %half_pi = arith.constant 1.57079632679 : f64
  %z0 = arith.constant 0.0 : f64
  %iz = complex.create %z0, %half_pi : complex<f64>
  %e = complex.exp %iz : complex<f64>
  %re = complex.re %e : complex<f64>
  %im = complex.im %e : complex<f64>
  %re_rounded = math.round %re : f64
  // CHECK-NEXT: 0
  call @printF64(%re_rounded) : (f64) -> ()
  call @printNewline() : () -> ()
  // CHECK-NEXT: 1
  call @printF64(%im) : (f64) -> ()
  call @printNewline() : () -> ()
  %w = complex.constant [3.0 : f32, 4.0 : f32] : complex<f32>
  %abs = complex.abs %w : complex<f32>
  // CHECK-NEXT: 5
  call @show(%abs) : (f32) -> ()

  // index and cf: a loop written with branches and index ops.
  %i0 = index.constant 0
  %i1 = index.constant 1
  %n = index.constant 5
  cf.br ^loop(%i0, %i0 : index, index)
^loop(%k: index, %acc: index):
  %more = index.cmp slt(%k, %n)
  cf.cond_br %more, ^body, ^done
^body:
  %sq = index.mul %k, %k
  %acc2 = index.add %acc, %sq
  %k2 = index.add %k, %i1
  cf.br ^loop(%k2, %acc2 : index, index)
^done:
  %acc64 = index.casts %acc : index to i64
  // CHECK-NEXT: 30
  call @printI64(%acc64) : (i64) -> ()
  call @printNewline() : () -> ()

  // ub: a poison value that is never observed.
  %poison = ub.poison : i64
  %picked = arith.select %more, %poison, %i : i64
  // CHECK-NEXT: 7
  call @printI64(%picked) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
