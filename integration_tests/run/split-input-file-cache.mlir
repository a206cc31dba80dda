// The compile cache keeps each part of a --split-input-file input under a
// key of its own: three parts make three entries, a second run loads each
// part's own, and a changed part misses while the others still hit.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/program.mlir
// RUN: %gpu-runner --split-input-file --cache-dir=%t/cache --timing %t/program.mlir > %t/out1 2> %t/err1
// RUN: FileCheck %s --check-prefix=OUT22 < %t/out1
// RUN: FileCheck %s --check-prefix=MISS < %t/err1
// RUN: %python -c "import glob; print(len(glob.glob('%t/cache/llvmcache-*')))" | FileCheck %s --check-prefix=ENTRIES
// RUN: %gpu-runner --split-input-file --cache-dir=%t/cache --timing %t/program.mlir > %t/out2 2> %t/err2
// RUN: FileCheck %s --check-prefix=OUT22 < %t/out2
// RUN: FileCheck %s --check-prefix=HIT < %t/err2
// RUN: sed -i 's/constant 2[2] :/constant 23 :/' %t/program.mlir
// RUN: %gpu-runner --split-input-file --cache-dir=%t/cache --timing %t/program.mlir > %t/out3 2> %t/err3
// RUN: FileCheck %s --check-prefix=OUT23 < %t/out3
// RUN: FileCheck %s --check-prefix=CHANGED < %t/err3

// OUT22: 1
// OUT22-NEXT: {{//}} -----
// OUT22-NEXT: 22
// OUT22-NEXT: {{//}} -----
// OUT22-NEXT: 333

// OUT23: 1
// OUT23-NEXT: {{//}} -----
// OUT23-NEXT: 23
// OUT23-NEXT: {{//}} -----
// OUT23-NEXT: 333

// MISS: compile cache: miss, stored as
// MISS: compile cache: miss, stored as
// MISS: compile cache: miss, stored as
// MISS-NOT: compile cache:

// ENTRIES: 3

// HIT: compile cache: hit,
// HIT: compile cache: hit,
// HIT: compile cache: hit,
// HIT-NOT: compile cache:

// CHANGED: compile cache: hit,
// CHANGED: compile cache: miss, stored as
// CHANGED: compile cache: hit,
// CHANGED-NOT: compile cache:

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 1 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// -----

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 22 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// -----

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 333 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
