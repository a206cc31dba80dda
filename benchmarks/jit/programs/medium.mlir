// A medium test program, the size of a larger file of an integration-test
// suite: a few functions with nested loops, branches and a reduction, linalg
// ops (fill, generic with index arithmetic, matmul, copy), a subview, and
// four memrefs printed. No gpu ops, so Debian's mlir-opt and mlir-runner run
// it too.
//
// prints
//
//   [[56,   64,   56,   64],
//    [136,   144,   136,   144],
//    [216,   224,   216,   224],
//    [296,   304,   296,   304]]
//   [0,  1,  4,  7,  10,  13,  16,  18]
//   [168960]
//   [[1,   1,   1],
//    [1,   1,   1]]

#identity = affine_map<(i, j) -> (i, j)>
#transposed = affine_map<(i, j) -> (j, i)>

func.func private @printMemrefF32(memref<*xf32>)

// m[i][j] = 10 i + j, with two nested loops.
func.func @fill_ramp(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ten = arith.constant 10 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %t = arith.muli %i, %ten : index
      %k = arith.addi %t, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      memref.store %kf, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// The sum of every element, with a loop-carried value.
func.func @sum(%m: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  %total = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> f32 {
    %row = scf.for %j = %c0 to %cols step %c1 iter_args(%r = %acc) -> f32 {
      %x = memref.load %m[%i, %j] : memref<?x?xf32>
      %s = arith.addf %r, %x : f32
      scf.yield %s : f32
    }
    scf.yield %row : f32
  }
  return %total : f32
}

// v[i] = max(0, (v[i-1] + v[i] + v[i+1]) / 2 - 2), ends clamped, into out.
func.func @smooth(%v: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %first = arith.cmpi eq, %i, %c0 : index
    %last = arith.cmpi eq, %i, %c7 : index
    %im1 = arith.subi %i, %c1 : index
    %ip1 = arith.addi %i, %c1 : index
    %l = arith.select %first, %i, %im1 : index
    %r = arith.select %last, %i, %ip1 : index
    %a = memref.load %v[%l] : memref<8xf32>
    %b = memref.load %v[%i] : memref<8xf32>
    %c = memref.load %v[%r] : memref<8xf32>
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    %h = arith.mulf %abc, %half : f32
    %d = arith.subf %h, %two : f32
    %neg = arith.cmpf olt, %d, %zero : f32
    %y = scf.if %neg -> f32 {
      scf.yield %zero : f32
    } else {
      scf.yield %d : f32
    }
    memref.store %y, %out[%i] : memref<8xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32

  // c = a * b on 16x16 matrices, b built transposed; the top-left 4x4 corner is printed.
  %a = memref.alloc(%c16, %c16) : memref<?x?xf32>
  %b = memref.alloc(%c16, %c16) : memref<?x?xf32>
  %c = memref.alloc(%c16, %c16) : memref<?x?xf32>
  func.call @fill_ramp(%a) : (memref<?x?xf32>) -> ()
  // b[i][j] = 1 if i + j is even, else 0, from the iteration indices.
  linalg.generic {indexing_maps = [#identity],
                  iterator_types = ["parallel", "parallel"]}
      outs(%b : memref<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = affine.apply affine_map<(i, j) -> ((i + j) mod 2)>(%i, %j)
    %even = arith.cmpi eq, %s, %c0 : index
    %x = arith.select %even, %one, %zero : f32
    linalg.yield %x : f32
  }
  %bt = memref.alloc(%c16, %c16) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#transposed, #identity],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<?x?xf32>) outs(%bt : memref<?x?xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %bt : memref<?x?xf32>, memref<?x?xf32>)
                outs(%c : memref<?x?xf32>)
  %corner = memref.subview %c[0, 0] [4, 4] [1, 1]
      : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1]>>
  %uc = memref.cast %corner : memref<4x4xf32, strided<[?, 1]>> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()

  // A smoothed ramp.
  %v = memref.alloc() : memref<8xf32>
  %w = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %i2 = arith.addi %i, %c4 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.addf %f, %f : f32
    memref.store %g, %v[%i] : memref<8xf32>
    %ii2 = arith.index_cast %i2 : index to i32
    %f2 = arith.sitofp %ii2 : i32 to f32
    %g2 = arith.addf %f2, %f2 : f32
    memref.store %g2, %v[%i2] : memref<8xf32>
  }
  func.call @smooth(%v, %w) : (memref<8xf32>, memref<8xf32>) -> ()
  %uw = memref.cast %w : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%uw) : (memref<*xf32>) -> ()

  // The sum of c, in a one-element memref.
  %total = func.call @sum(%c) : (memref<?x?xf32>) -> f32
  %t = memref.alloc() : memref<1xf32>
  memref.store %total, %t[%c0] : memref<1xf32>
  %ut = memref.cast %t : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%ut) : (memref<*xf32>) -> ()

  // linalg.copy of a filled block.
  %p = memref.alloc() : memref<2x3xf32>
  %q = memref.alloc() : memref<2x3xf32>
  linalg.fill ins(%one : f32) outs(%p : memref<2x3xf32>)
  linalg.copy ins(%p : memref<2x3xf32>) outs(%q : memref<2x3xf32>)
  %uq = memref.cast %q : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%uq) : (memref<*xf32>) -> ()

  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %bt : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  memref.dealloc %v : memref<8xf32>
  memref.dealloc %w : memref<8xf32>
  memref.dealloc %t : memref<1xf32>
  memref.dealloc %p : memref<2x3xf32>
  memref.dealloc %q : memref<2x3xf32>
  return
}
