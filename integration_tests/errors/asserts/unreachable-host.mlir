// Host code that reaches llvm.unreachable stops there with an error, at
// every optimization level, instead of running into the code that comes
// next (here, a function nobody calls that prints).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner -O0 %s 2>&1 | FileCheck %s

func.func @main() {
  llvm.unreachable
}

func.func @never_called() {
  %f = llvm.mlir.addressof @text : !llvm.ptr
  %0 = llvm.call @printf(%f) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr) -> i32
  return
}

llvm.mlir.global internal constant @text("fell through\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// CHECK-NOT: fell through
// CHECK: error: reached unreachable code (llvm.unreachable, or an op the program says is never reached) in the program's host code (outside any kernel)
// CHECK-NOT: fell through
