// --split-input-file with failing parts in the middle: each reports its
// error at its line in this file, the parts after it still run, stdout
// still has the marker line between every two parts, and the status is 1.
// RUN: %expect-exit-1 %gpu-runner --split-input-file %s > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines --strict-whitespace < %t.out
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=error: < %t.err

//      OUT:1
// OUT-NEXT:{{//}} -----
// OUT-NEXT:{{//}} -----
// OUT-NEXT:{{//}} -----
// OUT-NEXT:{{//}} -----
// OUT-NEXT:{{//}} -----
// OUT-NEXT:6
// OUT-NEXT:{{//}} -----
//  OUT-NOT:{{.}}

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 1 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// -----

// A syntax error.
func.func @main() {
  // ERR: split-input-file.mlir:[[# @LINE + 1]]:3: error: custom op 'no_such_op' is unknown
  no_such_op
  return
}

// -----

// An error while the part runs, at its lines.
func.func @main() {
  %dev = gpu.alloc () : memref<16xf32>
  gpu.dealloc %dev : memref<16xf32>
  // ERR: split-input-file.mlir:[[# @LINE + 1]]:3: error: gpu.dealloc: {{.*}}double free{{.*}}split-input-file.mlir:[[# @LINE - 1]]:3
  gpu.dealloc %dev : memref<16xf32>
  return
}

// -----

// A part without @main: the error is at its first line of text.
// ERR: split-input-file.mlir:[[# @LINE - 1]]:1: error: entry point 'main' not found; name it with -e
func.func @other() {
  return
}

// -----

// A part whose process is killed: it is reported at the part's first line.
// ERR: split-input-file.mlir:[[# @LINE - 1]]:1: error: the run of the part of the input from here ended by signal 9 (Killed)
func.func private @getpid() -> i32
func.func private @kill(i32, i32) -> i32
func.func @main() {
  %sigkill = arith.constant 9 : i32
  %pid = call @getpid() : () -> i32
  %r = call @kill(%pid, %sigkill) : (i32, i32) -> i32
  return
}

// -----

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 6 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// A last marker leaves an empty part, reported at that marker's line.
// ERR: split-input-file.mlir:[[# @LINE + 1]]:1: error: the part of the input that starts here is empty: it has no entry point to run
// -----
