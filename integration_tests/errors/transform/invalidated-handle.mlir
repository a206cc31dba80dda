// A transform script that fails stops the program before anything runs,
// with the transform interpreter's error at the transform op and its notes.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

func.func @main() {
  %seven = arith.constant 7.0 : f32
  %buffer = memref.alloc() : memref<10xf32>
  linalg.fill ins(%seven : f32) outs(%buffer : memref<10xf32>)
  vector.print %seven : f32
  memref.dealloc %buffer : memref<10xf32>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %fill tile_sizes [4]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The tiling consumed %fill: using it again is an error.
    // CHECK: invalidated-handle.mlir:[[# @LINE + 2]]:5: error: op uses a handle invalidated by a previously executed transform op
    // CHECK: invalidated-handle.mlir:[[# @LINE - 6]]:13: note: handle to invalidated ops
    transform.debug.emit_remark_at %fill, "tiled" : !transform.any_op
    transform.yield
  }
}
