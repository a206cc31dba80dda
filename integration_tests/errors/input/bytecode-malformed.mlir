// Bytecode that makes MLIR's bytecode reader fail hard is read in a child
// process first (runner/compiler/Parse.cpp), so that the runner reports it
// as malformed bytecode instead of aborting with the reader. Each input is
// Inputs/bytecode/memcpy-round-trip.mlirbc (examples/memcpy-round-trip.mlir
// written by mlir-opt --emit-bytecode) with two or three bytes changed:
// - vector-too-large: bytes 555 and 563 (1-based): a count that LLVM's
//   SmallVector cannot hold, one of LLVM's fatal errors;
// - allocation-too-large: bytes 130, 333 and 420: an allocation that fails;
// - segmentation-fault: bytes 391, 401 and 646: the reader reads far out of
//   bounds;
// - double-free: bytes 77 and 109: after its error, the reader frees memory
//   twice, and glibc aborts the process.
// Under a sanitizer, the sanitizer catches allocation-too-large and
// segmentation-fault first.
//
// RUN: %gpu-runner %S/../../Inputs/bytecode/memcpy-round-trip.mlirbc | FileCheck %s --check-prefix=VALID
// VALID: [0,  1,  2,  3,  4,  5,  6,  7]
//
// RUN: %expect-exit-1 %gpu-runner %S/../../Inputs/bytecode/vector-too-large.mlirbc 2>&1 | FileCheck %s --check-prefix=VECTOR
// VECTOR: vector-too-large.mlirbc:1:1: error: malformed MLIR bytecode: the bytecode reader failed reading it: SmallVector unable to grow
//
// RUN: %expect-exit-1 %gpu-runner %S/../../Inputs/bytecode/allocation-too-large.mlirbc 2>&1 | FileCheck %s --check-prefix=ALLOCATION
// ALLOCATION: allocation-too-large.mlirbc:1:1: error: malformed MLIR bytecode: the bytecode reader failed reading it: {{it ran out of memory|a sanitizer reported an error}}
//
// RUN: %expect-exit-1 %gpu-runner %S/../../Inputs/bytecode/segmentation-fault.mlirbc 2>&1 | FileCheck %s --check-prefix=SEGV
// SEGV: segmentation-fault.mlirbc:1:1: error: malformed MLIR bytecode: the bytecode reader {{crashed reading it \(Segmentation fault\)|failed reading it: a sanitizer reported an error}}
//
// RUN: %expect-exit-1 %gpu-runner %S/../../Inputs/bytecode/double-free.mlirbc 2>&1 | FileCheck %s --check-prefix=%if sanitizers %{DOUBLE-FREE-SANITIZED%} %else %{DOUBLE-FREE%}
// DOUBLE-FREE: double-free.mlirbc:1:1: error: malformed MLIR bytecode: the bytecode reader crashed reading it (Aborted)
// Under AddressSanitizer, whose allocator leaves other values in memory,
// the reader only reports the error, and frees nothing twice.
// DOUBLE-FREE-SANITIZED: double-free.mlirbc:1:1: error: invalid MLIR bytecode: Attribute or Type entry offset points past the end of section
//
// From stdin, named as such.
// RUN: %expect-exit-1 %gpu-runner - < %S/../../Inputs/bytecode/vector-too-large.mlirbc 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:1:1: error: malformed MLIR bytecode: the bytecode reader failed reading it: SmallVector unable to grow
