// Device memory the program never frees is reported at exit, where it was
// allocated, one line per op: an op in a loop that leaks on every turn gets
// one line with the count and the bytes. The program's output and exit
// status are unaffected. Under --check=leakcheck they are errors instead
// (errors/checks/leakcheck.mlir).
// UNSUPPORTED: checks
// RUN: %gpu-runner %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LEAK < %t.err

// LEAK: leak-report.mlir:[[# @LINE + 9]]:11: warning: gpu.alloc: 400 bytes of device memory allocated here were never freed
// LEAK-NEXT: leak-report.mlir:[[# @LINE + 18]]:10: warning: gpu.alloc: 1000 allocations made here (32000 bytes of device memory in all) were never freed
// LEAK-NOT: warning

func.func private @printI64(i64)

func.func @main() {
  %freed = gpu.alloc () : memref<8xf32>
  gpu.dealloc %freed : memref<8xf32>
  %kept = gpu.alloc () : memref<100xi32>
  %zero = arith.constant 0 : i32
  gpu.memset %kept, %zero : memref<100xi32>, i32
  %v = arith.constant 5 : i64
  // CHECK: 5
  call @printI64(%v) : (i64) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  scf.for %i = %c0 to %c1000 step %c1 {
    %m = gpu.alloc () : memref<8xi32>
    gpu.memset %m, %zero : memref<8xi32>, i32
  }
  return
}
