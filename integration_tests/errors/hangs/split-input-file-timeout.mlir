// A part of --split-input-file that times out: the error is at the part's
// first line, as other errors about a whole part are, and the parts after
// it still run. The --compile-only run fills the compile cache first, so
// that the one second is spent running, not compiling, on a loaded machine.
// RUN: %gpu-runner --split-input-file %s --compile-only
// RUN: %expect-exit-1 %gpu-runner --split-input-file %s --timeout=1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=error: < %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out

// OUT: {{^}}1{{$}}
// OUT-NEXT: {{^//}} -----{{$}}
// OUT-NEXT: {{^//}} -----{{$}}
// OUT-NEXT: {{^}}3{{$}}

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 1 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// -----

// ERR: split-input-file-timeout.mlir:[[# @LINE]]:1: error: timed out after 1 s (--timeout=1): the program was still running{{$}}
func.func @main() {
  %true = arith.constant true
  scf.while : () -> () {
    %v = llvm.inline_asm has_side_effects "", "=r" : () -> i32
    scf.condition(%true)
  } do {
    scf.yield
  }
  return
}

// -----

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 3 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
