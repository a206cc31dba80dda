// Input that starts like MLIR bytecode but is not valid bytecode.
// RUN: printf 'ML\xefR\x01\x02' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: printf 'ML\xefR' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=MAGIC

// SHORT: <stdin>:1:1: error: invalid MLIR bytecode: malformed null-terminated string, no null character found
// MAGIC: <stdin>:1:1: error: invalid MLIR bytecode: attempting to parse a byte at the end of the bytecode
