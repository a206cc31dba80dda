// An op in generic form of a dialect the runner does not know: the error
// lists the dialects it accepts (MLIR's own message suggests a flag that
// gpu-runner does not have), and that --passes opens MLIR's other dialects.
// With --passes, an op of no dialect MLIR has gets the whole list.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner --passes=cse %s 2>&1 | FileCheck %s --check-prefix=PASSES

// PASSES: error: operation being parsed with an unregistered dialect: gpu-runner accepts ops and types of the dialects {{.*}}, tensor, {{.*}}, xegpu, xevm{{$}}

func.func @main() {
  // CHECK: unregistered-dialect-op.mlir:[[# @LINE + 1]]:14: error: operation being parsed with an unregistered dialect: gpu-runner accepts ops and types of the dialects affine, amdgpu, arith, async, bufferization, builtin, cf, complex, dlti, func, gpu, index, linalg, llvm, math, memref, nvgpu, nvvm, rocdl, scf, spirv, tensor, transform, ub, vector; --passes opens the others that MLIR has, for passes that lower them to these{{$}}
  "sparse.op"() : () -> ()
  return
}
