// Functions from --shared-libs libraries: one that exports them in its
// symbol table, and one that exports them through MLIR's ExecutionEngine
// init function, under names its symbol table does not have. Naming the
// runner utilities again, as mlir-runner command lines do, is harmless.
// REQUIRES: host-cxx
// RUN: %host_cxx -shared -fPIC %S/Inputs/plain-library.cpp -o %t.plain.so
// RUN: %host_cxx -shared -fPIC -I%llvm_include_dir %S/Inputs/init-library.cpp -o %t.init.so
// RUN: %gpu-runner %s --shared-libs=%t.plain.so,%t.init.so | FileCheck %s
// RUN: %gpu-runner %s --shared-libs=%llvm_lib_dir/libmlir_runner_utils.so --shared-libs=%t.plain.so,%t.init.so | FileCheck %s
// Without them, the first function is reported where it is declared.
// RUN: not %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %gpu-runner %s --shared-libs=%t.init.so 2>&1 | FileCheck %s --check-prefix=MISSING

// MISSING: shared-libs.mlir:[[# @LINE + 1]]:1: error: unresolved external function 'gpuRunnerTestAnswer'
func.func private @gpuRunnerTestAnswer() -> i32
func.func private @gpuRunnerTestViaInit() -> i32
func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  // CHECK: 42
  // CHECK-NEXT: 7
  %a = call @gpuRunnerTestAnswer() : () -> i32
  %a64 = arith.extsi %a : i32 to i64
  call @printI64(%a64) : (i64) -> ()
  call @printNewline() : () -> ()
  %b = call @gpuRunnerTestViaInit() : () -> i32
  %b64 = arith.extsi %b : i32 to i64
  call @printI64(%b64) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
