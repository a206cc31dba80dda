// The smallest useful test program: one loop fills a vector, which is
// printed. No gpu ops, so Debian's mlir-opt and mlir-runner run it too.
//
// prints
//
//   [0,  1,  4,  9,  16,  25,  36,  49]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8 : index
  %v = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %sq = arith.mulf %f, %f : f32
    memref.store %sq, %v[%i] : memref<8xf32>
  }
  %u = memref.cast %v : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %v : memref<8xf32>
  return
}
