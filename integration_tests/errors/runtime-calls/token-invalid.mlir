// RUN: %expect-exit-1 %gpu-runner %s -e dependency 2>&1 | FileCheck %s --check-prefix=DEPENDENCY
// RUN: %expect-exit-1 %gpu-runner %s -e wait 2>&1 | FileCheck %s --check-prefix=WAIT

// A token stays valid after a gpu.wait released its stream (run/
// tokens-after-wait.mlir), but a token no stream or event ever had (here
// made from an integer) is reported at the op that uses it, not run.

func.func @dependency() {
  %i = llvm.mlir.constant(12345 : i64) : i64
  %p = llvm.inttoptr %i : i64 to !llvm.ptr
  %t = builtin.unrealized_conversion_cast %p : !llvm.ptr to !gpu.async.token
  %dev = gpu.alloc () : memref<4xi32>
  %v = arith.constant 1 : i32
  // DEPENDENCY: token-invalid.mlir:[[# @LINE + 1]]:9: error: gpu.memset: invalid stream handle 0x3039: no stream was created with it
  %t1 = gpu.memset async [%t] %dev, %v : memref<4xi32>, i32
  gpu.wait [%t1]
  return
}

func.func @wait() {
  %i = llvm.mlir.constant(12345 : i64) : i64
  %p = llvm.inttoptr %i : i64 to !llvm.ptr
  %t = builtin.unrealized_conversion_cast %p : !llvm.ptr to !gpu.async.token
  // WAIT: token-invalid.mlir:[[# @LINE + 1]]:3: error: gpu.wait: invalid stream handle 0x3039: no stream was created with it
  gpu.wait [%t]
  return
}
