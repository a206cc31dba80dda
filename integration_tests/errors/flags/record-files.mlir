// The files --trace and --benchmark-out write are checked as --output's
// are, before anything runs: neither may be the input, by whatever name,
// nor the same file as another output, and --split-input-file, whose parts
// would each overwrite the file, refuses them. A file that cannot be
// written is an error at exit, after the program ran and printed, never a
// silent success; the trace's temporary file is not left behind.
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.mlir && ln -s prog.mlir %t/link.mlir
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --trace=%t/link.mlir 2>&1 | FileCheck %s --check-prefix=TRACE-INPUT
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --benchmark-repetitions=1 --benchmark-out=%t/prog.mlir 2>&1 | FileCheck %s --check-prefix=BENCH-INPUT
// "--trace FILE" takes the next word as the file: a program named there is
// refused, not overwritten (the run would read its program from stdin), and
// so is a flag with no file.
// RUN: %expect-exit-1 %gpu-runner --trace %t/prog.mlir < /dev/null 2>&1 | FileCheck %s --check-prefix=TRACE-SPACE
// RUN: %expect-exit-1 %gpu-runner --benchmark-repetitions=1 --benchmark-out %t/prog.mlir < /dev/null 2>&1 | FileCheck %s --check-prefix=BENCH-SPACE
// RUN: %expect-exit-1 %gpu-runner --trace= %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=TRACE-EMPTY
// RUN: cmp %s %t/prog.mlir
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir -e twice --input=3 --output=@%t/a.npy --trace=%t/./a.npy 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --benchmark-repetitions=1 --trace=%t/b.json --benchmark-out=%t/b.json 2>&1 | FileCheck %s --check-prefix=SAME-RECORD
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --split-input-file --trace=%t/c.json 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not ls %t/a.npy %t/b.json %t/c.json
//
// RUN: %expect-exit-1 %gpu-runner %s --trace=%t/no-such-folder/t.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: %expect-exit-1 %gpu-runner %s --trace=/dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: %expect-exit-1 %gpu-runner %s --benchmark-repetitions=1 --benchmark-out=/dev/full 2>&1 | FileCheck %s --check-prefix=BENCH-FULL
// RUN: ls -A %t | FileCheck %s --check-prefix=LEFT --implicit-check-not=tmp

// TRACE-INPUT: error: --trace={{.*}}link.mlir names the input file: writing the trace would overwrite the program; choose another file
// TRACE-SPACE: error: --trace={{.*}}prog.mlir names an MLIR file, which writing JSON to it would overwrite: give the file a .json name, after an '='
// BENCH-SPACE: error: --benchmark-out={{.*}}prog.mlir names an MLIR file
// TRACE-EMPTY: error: --trace= names no file: give --trace=FILE
// BENCH-INPUT: error: --benchmark-out={{.*}}prog.mlir names the input file: writing the benchmark report would overwrite the program
// SAME: error: --output=@{{.*}}a.npy and --trace={{.*}}a.npy name the same file: the trace would overwrite result[0]; give each a file of its own
// SAME-RECORD: error: --trace={{.*}}b.json and --benchmark-out={{.*}}b.json name the same file: the benchmark report would overwrite the trace
// SPLIT: error: --trace={{.*}}c.json writes one file, and --split-input-file runs each part of the input apart
// UNWRITABLE: printed
// UNWRITABLE-NEXT: error: --trace={{.*}}no-such-folder/t.json: cannot write it: {{.*}}No such file or directory
// FULL: printed
// FULL-NEXT: error: --trace=/dev/full: cannot write it: No space left on device
// BENCH-FULL: error: --benchmark-out=/dev/full: cannot write it: No space left on device
// LEFT: link.mlir
// LEFT: prog.mlir

func.func @main() {
  vector.print str "printed\n"
  return
}

func.func @twice(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}
