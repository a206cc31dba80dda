// SIGTERM to the runner under --split-input-file while a part runs: the
// part's process is stopped too and waited for, the parts after it do not
// run, and the runner ends by the signal (status 143, 128 + SIGTERM).
// The part's process is found as the runner's child before the signal is
// sent; `timeout` makes a runner that does not end fail the test.
// RUN: rm -f %t.out %t.err %t.status
// RUN: timeout 120 sh -c '\
// RUN:   %gpu-runner --split-input-file %s > %t.out 2> %t.err & runner=$!; \
// RUN:   child=; \
// RUN:   while [ -z "$child" ]; do child=$(pgrep -P $runner); sleep 0.1; done; \
// RUN:   kill -TERM $runner; wait $runner; echo $? > %t.status; \
// RUN:   if kill -0 $child 2>/dev/null; then kill -KILL $child; \
// RUN:     echo "part process $child left running"; exit 1; fi'
// RUN: FileCheck %s --check-prefix=STATUS < %t.status
// RUN: FileCheck %s --check-prefix=OUT --allow-empty < %t.out
// STATUS: {{^}}143{{$}}
// OUT-NOT: 2

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
  %c = arith.constant 2 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
