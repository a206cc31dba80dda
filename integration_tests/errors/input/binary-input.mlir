// Garbage on stdin, an empty input, and a file that does not exist.
// RUN: printf '\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: printf 'func.func @main() {\n  return\n}\n\xc3\x28' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: printf '' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %expect-exit-1 %gpu-runner %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING

// BINARY: <stdin>:1:8: error: the input is neither MLIR text nor MLIR bytecode: byte 7 is 0x00
// UTF8: <stdin>:4:1: error: the input is neither MLIR text nor MLIR bytecode: byte 31 is 0xc3
// EMPTY: <stdin>:1:1: error: entry point 'main' not found
// MISSING: error: cannot open input file '{{.*}}does-not-exist': No such file or directory
