// Bytecode whose sizes make MLIR's bytecode reader ask for between 8 and
// 16 GB (mlir-opt-22 fills 13 GiB with it, over 20 s, before it reports an
// invalid section) is read in a child process whose address space may grow
// by at most 4 GiB (16 times the input for larger ones): the allocation
// fails at once, and the runner reports malformed bytecode, whatever the
// machine's memory. Inputs/bytecode/fills-memory.mlirbc is
// memcpy-round-trip.mlirbc with bytes 19, 206 and 412 (1-based) changed.
//
// Under a sanitizer, which reserves terabytes of address space, the child's
// address space is not limited, and this input would fill memory.
// UNSUPPORTED: sanitizers
//
// RUN: %expect-exit-1 %gpu-runner %S/../../Inputs/bytecode/fills-memory.mlirbc 2>&1 | FileCheck %s
// CHECK: fills-memory.mlirbc:1:1: error: malformed MLIR bytecode: the bytecode reader failed reading it: it ran out of memory
