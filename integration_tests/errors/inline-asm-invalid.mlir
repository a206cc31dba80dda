// Inline assembly the target does not know is an error of the JIT's
// assembler, not a crash.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// CHECK: error: <inline asm>:1:2: invalid instruction mnemonic 'frobnicate'
func.func @main() {
  %zero = arith.constant 0 : i32
  %r = llvm.inline_asm has_side_effects "frobnicate $1, $0", "=r,r" %zero : (i32) -> i32
  return
}
