// Functions from --shared-libs libraries, including one that exports its
// symbols through MLIR's ExecutionEngine init function (the async runtime);
// naming the runner utilities again, as mlir-runner command lines do, is
// harmless.
// RUN: %gpu-runner %s --shared-libs=%llvm_lib_dir/libmlir_async_runtime.so | FileCheck %s
// RUN: %gpu-runner %s --shared-libs=%llvm_lib_dir/libmlir_runner_utils.so,%llvm_lib_dir/libmlir_async_runtime.so | FileCheck %s
// Without the library, the function is reported where it is declared.
// RUN: not %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=MISSING

// MISSING: shared-libs.mlir:[[# @LINE + 1]]:1: error: unresolved external function 'mlirAsyncRuntimeCreateToken'
func.func private @mlirAsyncRuntimeCreateToken() -> !llvm.ptr
func.func private @mlirAsyncRuntimeEmplaceToken(!llvm.ptr)
func.func private @mlirAsyncRuntimeAwaitToken(!llvm.ptr)
func.func private @mlirAsyncRuntimeDropRef(!llvm.ptr, i64)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %token = call @mlirAsyncRuntimeCreateToken() : () -> !llvm.ptr
  call @mlirAsyncRuntimeEmplaceToken(%token) : (!llvm.ptr) -> ()
  call @mlirAsyncRuntimeAwaitToken(%token) : (!llvm.ptr) -> ()
  %one = arith.constant 1 : i64
  call @mlirAsyncRuntimeDropRef(%token, %one) : (!llvm.ptr, i64) -> ()
  // CHECK: 42
  %v = arith.constant 42 : i64
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
