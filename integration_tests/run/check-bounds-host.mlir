// In-bounds host code runs the same with --check-bounds, which checks its
// memref ops when they run (errors/checks/check-bounds-host.mlir):
// the edges of each check (the last element, views that end at the end,
// empty views, a reversed view, a whole buffer from its base) pass.
// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printI64(i64)

func.func @printI32(%v: i32) {
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  return
}
func.func private @printNewline()

// printMemref would print an element of an empty view: its size instead.
func.func @printSize(%m: memref<?xi32, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %size = memref.dim %m, %c0 : memref<?xi32, strided<[?], offset: ?>>
  %s = arith.index_cast %size : index to i64
  call @printI64(%s) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @print(%m: memref<?xi32, strided<[?], offset: ?>>) {
  %u = memref.cast %m : memref<?xi32, strided<[?], offset: ?>> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc(%c8) : memref<?xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %m[%i] : memref<?xi32>
  }
  %c7 = arith.constant 7 : index
  %last = memref.load %m[%c7] : memref<?xi32>
  // CHECK: {{^}}7{{$}}
  call @printI32(%last) : (i32) -> ()
  call @printNewline() : () -> ()

  // The last four elements, and an empty view at the end.
  %tail = memref.subview %m[%c4] [%c4] [%c1] : memref<?xi32> to memref<?xi32, strided<[?], offset: ?>>
  // CHECK: [4,  5,  6,  7]
  call @print(%tail) : (memref<?xi32, strided<[?], offset: ?>>) -> ()
  %empty = memref.subview %m[%c8] [%c0] [%c1] : memref<?xi32> to memref<?xi32, strided<[?], offset: ?>>
  // CHECK-NEXT: {{^}}0{{$}}
  call @printSize(%empty) : (memref<?xi32, strided<[?], offset: ?>>) -> ()

  // A cast to the static shape it has.
  %static = memref.cast %m : memref<?xi32> to memref<8xi32>
  %s0 = memref.load %static[%c1] : memref<8xi32>
  // CHECK: {{^}}1{{$}}
  call @printI32(%s0) : (i32) -> ()
  call @printNewline() : () -> ()

  // The whole buffer as 2x4, the tail reversed, an empty view from
  // anywhere, every other element of the tail.
  %grid = memref.reinterpret_cast %m to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<?xi32> to memref<2x4xi32>
  %g = memref.load %grid[%c1, %c0] : memref<2x4xi32>
  // CHECK: {{^}}4{{$}}
  call @printI32(%g) : (i32) -> ()
  call @printNewline() : () -> ()
  %reversed = memref.reinterpret_cast %tail to offset: [7], sizes: [4], strides: [-1] : memref<?xi32, strided<[?], offset: ?>> to memref<?xi32, strided<[?], offset: ?>>
  // CHECK: [7,  6,  5,  4]
  call @print(%reversed) : (memref<?xi32, strided<[?], offset: ?>>) -> ()
  %c100 = arith.constant 100 : index
  %nothing = memref.reinterpret_cast %m to offset: [%c100], sizes: [0], strides: [1] : memref<?xi32> to memref<?xi32, strided<[?], offset: ?>>
  // CHECK-NEXT: {{^}}0{{$}}
  call @printSize(%nothing) : (memref<?xi32, strided<[?], offset: ?>>) -> ()
  %odd = memref.reinterpret_cast %tail to offset: [5], sizes: [2], strides: [2] : memref<?xi32, strided<[?], offset: ?>> to memref<?xi32, strided<[?], offset: ?>>
  // CHECK: [5,  7]
  call @print(%odd) : (memref<?xi32, strided<[?], offset: ?>>) -> ()

  // A view of the whole buffer made from the tail's base buffer, which
  // stands for the allocation: not checked against the tail.
  %base, %offset, %size, %stride = memref.extract_strided_metadata %tail : memref<?xi32, strided<[?], offset: ?>> -> memref<i32>, index, index, index
  %whole = memref.reinterpret_cast %base to offset: [0], sizes: [%c8], strides: [1] : memref<i32> to memref<?xi32, strided<[?], offset: ?>>
  // CHECK: [0,  1,  2,  3,  4,  5,  6,  7]
  call @print(%whole) : (memref<?xi32, strided<[?], offset: ?>>) -> ()

  // A copy between memrefs of the same shape, and linalg on them.
  %n = memref.alloc(%c8) : memref<?xi32>
  memref.copy %m, %n : memref<?xi32> to memref<?xi32>
  linalg.add ins(%m, %n : memref<?xi32>, memref<?xi32>) outs(%n : memref<?xi32>)
  %un = memref.cast %n : memref<?xi32> to memref<*xi32>
  // CHECK: [0,  2,  4,  6,  8,  10,  12,  14]
  call @printMemrefI32(%un) : (memref<*xi32>) -> ()

  // An affine loop over every element, and a vector load that ends at the
  // end.
  affine.for %i = 0 to 8 {
    %a = affine.load %n[%i] : memref<?xi32>
    %b = arith.addi %a, %a : i32
    affine.store %b, %n[%i] : memref<?xi32>
  }
  %vec = vector.load %n[%c4] : memref<?xi32>, vector<4xi32>
  // CHECK: ( 16, 20, 24, 28 )
  vector.print %vec : vector<4xi32>

  // A store in an async.execute body.
  %t = async.execute {
    %v = arith.constant 42 : i32
    memref.store %v, %n[%c7] : memref<?xi32>
    async.yield
  }
  async.await %t : !async.token
  %v = memref.load %n[%c7] : memref<?xi32>
  // CHECK: {{^}}42{{$}}
  call @printI32(%v) : (i32) -> ()
  call @printNewline() : () -> ()
  memref.dealloc %m : memref<?xi32>
  memref.dealloc %n : memref<?xi32>
  return
}
