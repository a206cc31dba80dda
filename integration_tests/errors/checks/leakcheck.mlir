// leakcheck: what the program never frees is an error at the op that made
// it: device memory (a warning without the check, run/leak-report.mlir) and
// the stream of an async chain whose last token no gpu.wait took. The
// program runs to its end first, and the run fails with the summary.
// RUN: %expect-exit-1 %gpu-runner %s --check=leakcheck 2>&1 | FileCheck %s
// Each check reports only what it checks: memcheck finds nothing here.
// RUN: %gpu-runner %s --check=memcheck 2>&1 | FileCheck %s --check-prefix=MEMCHECK

// CHECK: done
// CHECK-NEXT: leakcheck.mlir:[[# @LINE + 14]]:11: error: leakcheck: gpu.alloc: 16 bytes of device memory allocated here were never freed
// CHECK-NEXT: leakcheck.mlir:[[# @LINE + 17]]:17: error: leakcheck: gpu.alloc: 32 bytes of device memory allocated here were never freed
// CHECK-NEXT: leakcheck.mlir:[[# @LINE + 15]]:9: error: leakcheck: gpu.wait: a stream made here was never released: no gpu.wait took the last token of the async ops that ran on it
// CHECK-NEXT: --check=leakcheck: 3 errors (leakcheck 3)

// MEMCHECK: done
// MEMCHECK-NEXT: leakcheck.mlir:[[# @LINE + 8]]:11: warning: gpu.alloc: 16 bytes of device memory allocated here were never freed
// MEMCHECK-NEXT: leakcheck.mlir:[[# @LINE + 11]]:17: warning: gpu.alloc: 32 bytes of device memory allocated here were never freed
// MEMCHECK-NEXT: --check=memcheck: no errors

func.func private @printString(!llvm.ptr)
llvm.mlir.global internal constant @done("done\0A\00")

func.func @main() {
  %kept = gpu.alloc () : memref<4xf32>
  %zero = arith.constant 0.0 : f32
  gpu.memset %kept, %zero : memref<4xf32>, f32
  %t0 = gpu.wait async
  %later, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
  %t2 = gpu.memset async [%t1] %later, %zero : memref<8xf32>, f32
  // Freed, and its stream waited for: not reported.
  %freed = gpu.alloc () : memref<4xf32>
  gpu.dealloc %freed : memref<4xf32>
  %t3 = gpu.wait async
  %t4 = gpu.memset async [%t3] %kept, %zero : memref<4xf32>, f32
  gpu.wait [%t4]
  %text = llvm.mlir.addressof @done : !llvm.ptr
  call @printString(%text) : (!llvm.ptr) -> ()
  return
}
