// Inline assembly the target's assembler refuses is an error at its
// llvm.inline_asm op, with the line of the assembly it is in as a note; the
// run stops before anything runs. Each error is reported once, however
// often the optimizer copies the assembly (inlining, a kernel's thread
// loop).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

func.func @helper(%pick: i1) -> i32 {
  cf.cond_br %pick, ^second, ^first
^first:
  %a = llvm.inline_asm has_side_effects "nop", "=r" : () -> i32
  return %a : i32
^second:
  // CHECK: inline-asm-invalid.mlir:[[# @LINE + 2]]:8: error: inline assembly: invalid instruction mnemonic 'frobnicate'
  // CHECK: inline-asm-invalid.mlir:[[# @LINE + 1]]:8: note: at line 2, column 2 of the assembly: frobnicate %eax
  %b = llvm.inline_asm has_side_effects "nop\0A\09frobnicate $0", "=r" : () -> i32
  return %b : i32
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %v = call @helper(%true) : (i1) -> i32
  // CHECK: inline-asm-invalid.mlir:[[# @LINE + 1]]:8: error: inline assembly: couldn't allocate output register for constraint '{xmm99}'
  %w = llvm.inline_asm has_side_effects "movl $$1, $0", "={xmm99}" : () -> i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // CHECK: inline-asm-invalid.mlir:[[# @LINE + 2]]:5: error: inline assembly: invalid instruction mnemonic 'wibble'
    // CHECK: inline-asm-invalid.mlir:[[# @LINE + 1]]:5: note: at line 1, column 2 of the assembly: wibble
    llvm.inline_asm has_side_effects "wibble", "" : () -> ()
    gpu.terminator
  }
  return
}
