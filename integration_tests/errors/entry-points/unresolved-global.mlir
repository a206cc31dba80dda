// RUN: %expect-exit-1 %gpu-runner %s 2>&1 >%t.out | FileCheck %s
// RUN: count 0 < %t.out

// CHECK: unresolved-global.mlir:[[# @LINE + 1]]:1: error: unresolved external global 'missing_counter': it is not defined in the program, and neither gpu-runner's runtime, the MLIR runner utilities, the C library nor a --shared-libs library provides it
llvm.mlir.global external @missing_counter() : i64

func.func private @printI64(i64)

func.func @main() {
  %p = llvm.mlir.addressof @missing_counter : !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> i64
  call @printI64(%v) : (i64) -> ()
  return
}
