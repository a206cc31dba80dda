// Output that cannot be written is an error, never a silent success: the
// program's own output and the entry point's result to a full disk or to a
// closed stdout, and the object file to a full disk.
//
// RUN: %expect-exit-1 %gpu-runner %s > /dev/full 2> %t.full
// RUN: FileCheck %s --check-prefix=FULL < %t.full
// FULL: error: the program's output could not be written: No space left on device
//
// RUN: %expect-exit-1 sh -c '%gpu-runner %s >&- 2> %t.closed'
// RUN: FileCheck %s --check-prefix=CLOSED < %t.closed
// CLOSED: error: the program's output could not be written: stdout is closed
//
// RUN: %expect-exit-1 %gpu-runner %s -e answer --entry-point-result=i32 > /dev/full 2> %t.result
// RUN: FileCheck %s --check-prefix=FULL < %t.result
//
// RUN: %expect-exit-1 %gpu-runner %s --dump-object-file --object-filename=/dev/full 2>&1 | FileCheck %s --check-prefix=OBJECT
// OBJECT: error: cannot write the object file '/dev/full': No space left on device
//
// A program that prints nothing may run with stdout closed.
// RUN: sh -c '%gpu-runner %s -e quiet >&-'
//
// A reader that stops reading (a closed pipe) ends the run as it ends other
// Unix tools: by SIGPIPE, status 141 in the shell.
// RUN: sh -c '(%gpu-runner %s -e many 2> %t.pipe-err; echo $? > %t.pipe-status) | head -c 1 > /dev/null'
// RUN: FileCheck %s --check-prefix=PIPE < %t.pipe-status
// PIPE: {{^}}141{{$}}
// RUN: count 0 < %t.pipe-err

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c42 = arith.constant 42 : i64
  call @printI64(%c42) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @answer() -> i32 {
  %c42 = arith.constant 42 : i32
  return %c42 : i32
}

func.func @quiet() {
  return
}

func.func @many() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    func.call @printI64(%v) : (i64) -> ()
    func.call @printNewline() : () -> ()
  }
  return
}
