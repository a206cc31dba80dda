// A program that carries a transform script runs as `mlir-opt
// -transform-interpreter -test-transform-dialect-erase-schedule |
// mlir-runner` runs it: __transform_main is applied to the program, then
// the script is erased. Here it tiles a linalg.fill into a loop of four
// elements a step, which the remark and the IR after the interpreter show,
// and the result is the same as untiled.
// RUN: %gpu-runner --split-input-file %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: %gpu-runner --split-input-file %s --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=IR

// CHECK: [7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
// CHECK: [7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
// REMARK: transform-script.mlir:[[# @LINE + 13]]:3: remark: tiled by 4
// REMARK: transform-script.mlir:[[# @LINE + 40]]:5: remark: tiled by 4

// IR: IR Dump After InterpreterPass
// IR: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// IR: linalg.fill {{.*}} memref<?xf32, strided<[1], offset: ?>>

// The script in a nested module, as upstream's tests write it.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %seven = arith.constant 7.0 : f32
  %buffer = memref.alloc() : memref<10xf32>
  linalg.fill ins(%seven : f32) outs(%buffer : memref<10xf32>)
  %unranked = memref.cast %buffer : memref<10xf32> to memref<*xf32>
  call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()
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
    transform.debug.emit_remark_at %tiled, "tiled by 4" : !transform.any_op
    transform.yield
  }
}

// -----

// The script beside the program, in a module that says it holds one.
module attributes {transform.with_named_sequence} {
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %seven = arith.constant 7.0 : f32
    %buffer = memref.alloc() : memref<10xf32>
    linalg.fill ins(%seven : f32) outs(%buffer : memref<10xf32>)
    %unranked = memref.cast %buffer : memref<10xf32> to memref<*xf32>
    call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()
    memref.dealloc %buffer : memref<10xf32>
    return
  }

  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %fill tile_sizes [4]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %tiled, "tiled by 4" : !transform.any_op
    transform.yield
  }
}
