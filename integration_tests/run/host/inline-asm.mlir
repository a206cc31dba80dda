// Inline assembly is assembled by the JIT (the target's assembly parser is
// initialized: without it LLVM aborted on any llvm.inline_asm).
// RUN: %gpu-runner %s --entry-point-result=i32 | FileCheck %s

// CHECK: 42
func.func @main() -> i32 {
  %x = arith.constant 42 : i32
  %r = llvm.inline_asm has_side_effects "mov $1, $0", "=r,r" %x : (i32) -> i32
  return %r : i32
}
