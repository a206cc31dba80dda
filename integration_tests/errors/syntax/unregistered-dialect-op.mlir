// An op in generic form of a dialect the runner does not know: the error
// lists the dialects it accepts (MLIR's own message suggests a flag that
// gpu-runner does not have).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: unregistered-dialect-op.mlir:[[# @LINE + 1]]:14: error: operation being parsed with an unregistered dialect: gpu-runner accepts ops and types of the dialects affine, arith, async, builtin, cf, complex, dlti, func, gpu, index, linalg, llvm, math, memref, nvvm, rocdl, scf, ub, vector{{$}}
  "sparse.op"() : () -> ()
  return
}
