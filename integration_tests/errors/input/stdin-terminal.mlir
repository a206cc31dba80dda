// With no file and a terminal on stdin the runner prints its usage and
// exits 1, where it used to wait, silently, for a program to be typed.
// `script` gives the runner a terminal; `timeout` ends the old wait.
// RUN: %expect-exit-1 timeout 20 script -qec '%gpu-runner' /dev/null | FileCheck %s
// A program on stdin that is not a terminal still runs without a file.
// RUN: %gpu-runner < %s | FileCheck %s --check-prefix=PIPE

// CHECK: error: no program to run
// CHECK-NEXT: usage: gpu-runner{{[a-z-]*}} [flags] FILE (FILE may be - to read the program from stdin)
// CHECK-NEXT: --help lists the flags

// PIPE: ran from stdin

func.func @main() {
  vector.print str "ran from stdin\n"
  return
}
