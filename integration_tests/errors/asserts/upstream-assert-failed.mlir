// A cf.assert that upstream's lowering already made a print and a call of
// abort() (input lowered by mlir-opt) prints its message on stdout, as
// upstream's does, and the runner reports the abort as an error, status 1.
// gpu-runner's own lowering reports a failed cf.assert at its op instead
// (assert-failed.mlir).
// RUN: mlir-opt --convert-cf-to-llvm %s | %expect-exit-1 %gpu-runner - 2>%t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=error: < %t.err

// OUT: {{^}}lowered by upstream{{$}}
// ERR: {{^}}error: the program aborted: a failed cf.assert (its message is printed above) or a call of abort(){{$}}
func.func @main() {
  %false = arith.constant false
  cf.assert %false, "lowered by upstream"
  return
}
