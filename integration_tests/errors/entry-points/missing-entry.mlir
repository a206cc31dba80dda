// RUN: %expect-exit-1 %gpu-runner %s -e nowhere 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e declared 2>&1 | FileCheck %s --check-prefix=DECLARED

// CHECK: missing-entry.mlir:1:1: error: entry point 'nowhere' not found; name it with -e

func.func @main() {
  return
}

// DECLARED: missing-entry.mlir:[[# @LINE + 1]]:1: error: entry point 'declared' is declared but not defined
func.func private @declared()
