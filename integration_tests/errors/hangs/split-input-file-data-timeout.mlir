// Under --split-input-file the data files are read, under --timeout, before
// the parts run; then each part has a --timeout of its own, and the
// process that runs them none: a part that times out is reported, and the
// next one runs, though the whole run takes longer than the timeout.
// RUN: rm -f %t.fifo.npy && mkfifo %t.fifo.npy
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --split-input-file --input=i64=1 --expected-output=@%t.fifo.npy --timeout=1 2>&1 | FileCheck %s --check-prefix=FIFO -DFILE=%t.fifo.npy
// The --compile-only run fills the compile cache first, so that the parts'
// seconds are spent running, not compiling, on a loaded machine.
// RUN: %gpu-runner %s --split-input-file --compile-only
// RUN: %expect-exit-1 timeout 30 %gpu-runner %s --split-input-file --input=i64=7 --timeout=2 2>&1 | FileCheck %s --check-prefix=PARTS

// FIFO: error: timed out after 1 s (--timeout=1) while reading data file '[[FILE]]'{{$}}
// FIFO-NOT: result

// PARTS: error: timed out after 2 s (--timeout=2): the program was still running
// PARTS: {{^// -+$}}
// PARTS-NEXT: result[0]: i64
// PARTS-NEXT: 7

func.func @main(%x: i64) -> i64 {
  %true = arith.constant true
  scf.while : () -> () {
    %v = llvm.inline_asm has_side_effects "", "=r" : () -> i32
    scf.condition(%true)
  } do {
    scf.yield
  }
  return %x : i64
}

// -----

func.func @main(%x: i64) -> i64 {
  return %x : i64
}
