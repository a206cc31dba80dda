// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// Thread and block ids, block and grid sizes of a 2-D launch: each thread
// writes a code of its ids into the element it owns.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  // 4 rows x 6 columns, covered by a 2x2 grid of 3x2 blocks (x = column).
  %ids = gpu.alloc () : memref<4x6xi32>
  %dims = gpu.alloc () : memref<4x6xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c2, %sz = %c1) {
    %col = affine.apply affine_map<(b, t)[s] -> (b * s + t)>(%bx, %tx)[%sx]
    %row = affine.apply affine_map<(b, t)[s] -> (b * s + t)>(%by, %ty)[%sy]
    // 1000 * block x + 100 * block y + 10 * thread x + thread y
    %code = affine.apply affine_map<(a, b, c, d) -> (a * 1000 + b * 100 + c * 10 + d)>(%bx, %by, %tx, %ty)
    %code32 = arith.index_cast %code : index to i32
    memref.store %code32, %ids[%row, %col] : memref<4x6xi32>
    // 1000 * grid x + 100 * grid y + 10 * block x + block y
    %dim = affine.apply affine_map<(a, b, c, d) -> (a * 1000 + b * 100 + c * 10 + d)>(%gx, %gy, %sx, %sy)
    %dim32 = arith.index_cast %dim : index to i32
    memref.store %dim32, %dims[%row, %col] : memref<4x6xi32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<4x6xi32>
  gpu.memcpy %h, %ids : memref<4x6xi32>, memref<4x6xi32>
  // CHECK:      {{\[}}[0,   10,   20,   1000,   1010,   1020],
  // CHECK-NEXT:  [1,   11,   21,   1001,   1011,   1021],
  // CHECK-NEXT:  [100,   110,   120,   1100,   1110,   1120],
  // CHECK-NEXT:  [101,   111,   121,   1101,   1111,   1121]]
  %u = memref.cast %h : memref<4x6xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.memcpy %h, %dims : memref<4x6xi32>, memref<4x6xi32>
  // CHECK:      {{\[}}[2232,   2232,   2232,   2232,   2232,   2232],
  // CHECK-COUNT-3: [2232,   2232,   2232,   2232,   2232,   2232]
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %ids : memref<4x6xi32>
  gpu.dealloc %dims : memref<4x6xi32>
  memref.dealloc %h : memref<4x6xi32>
  return
}
