// Input with nothing in it but white space or comments has no entry point.
// RUN: printf '\n   \n\t\n' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=BLANK
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=COMMENTS
// RUN: printf 'module {}' | %expect-exit-1 %gpu-runner - 2>&1 | FileCheck %s --check-prefix=MODULE

// BLANK: <stdin>:1:1: error: entry point 'main' not found; the program defines no function
// COMMENTS: empty-input.mlir:1:1: error: entry point 'main' not found; the program defines no function
// MODULE: <stdin>:1:1: error: entry point 'main' not found; the program defines no function
