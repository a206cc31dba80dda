// --split-input-file with --output=@FILE is refused: every part would write
// the same file, and only the last part's results would be left. Printing
// the results (--output=-) goes with it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %expect-exit-1 %gpu-runner --split-input-file %s --input=1 --output=@%t/r.npy 2>&1 | FileCheck %s --check-prefix=NPY
// RUN: %expect-exit-1 %gpu-runner --split-input-file %s --input=1 --output=@%t/r.bin 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: %python -c "import os; print('files:', os.listdir('%t'))" | FileCheck %s --check-prefix=NONE
// RUN: %gpu-runner --split-input-file %s --input=1 --output=- | FileCheck %s --check-prefix=PRINT

// NPY: error: --output=@{{.*}}r.npy writes one file, and --split-input-file runs each part of the input apart: each part would overwrite it; write the results of one program at a time
// RAW: error: --output=@{{.*}}r.bin writes one file
// NONE: files: []
// PRINT:      result[0]: i32
// PRINT-NEXT: 1
// PRINT-NEXT: {{//}} -----
// PRINT-NEXT: result[0]: i32
// PRINT-NEXT: 2

func.func @main(%x: i32) -> i32 {
  return %x : i32
}

// -----

func.func @main(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %y = arith.addi %x, %c1 : i32
  return %y : i32
}
