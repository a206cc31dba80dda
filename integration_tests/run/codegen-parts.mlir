// A large enough program is split, and its parts compiled on threads at
// once, one object each: it runs and prints as one object does, also when
// its parts come from the compile cache. --codegen-threads=1 and
// --dump-object-file make one object. all-reduce.mlir's host code (its
// kernels, compiled for the CPU) is large enough for two parts or more.
// REQUIRES: host
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-runner --cache-dir=%t/cache --timing --codegen-threads=3 %S/kernels/all-reduce.mlir 2> %t/parts.err | FileCheck %S/kernels/all-reduce.mlir
// RUN: FileCheck %s --check-prefix=PARTS < %t/parts.err
// RUN: %gpu-runner --cache-dir=%t/cache --timing --codegen-threads=3 %S/kernels/all-reduce.mlir 2> %t/hit.err | FileCheck %S/kernels/all-reduce.mlir
// RUN: FileCheck %s --check-prefix=HIT < %t/hit.err
// RUN: %gpu-runner --no-cache --timing --codegen-threads=1 %S/kernels/all-reduce.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %gpu-runner --no-cache --timing --dump-object-file --object-filename=%t/all-reduce.o %S/kernels/all-reduce.mlir 2>&1 | FileCheck %s --check-prefix=ONE

// PARTS: compile cache: miss
// PARTS: LLVM code generation, {{[23]}} parts at once
// HIT: compile cache: hit
// ONE: compile cache: off
// ONE-NOT: parts at once
// ONE: LLVM code generation
// ONE-NOT: parts at once

// The program here is all-reduce.mlir; this file's own is empty, for the
// suites that compile every file of run/.
func.func @main() {
  return
}
