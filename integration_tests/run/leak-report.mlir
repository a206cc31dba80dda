// Device memory the program never frees is reported at exit, where it was
// allocated; the program's output and exit status are unaffected.
// RUN: %gpu-runner %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LEAK < %t.err

// LEAK: leak-report.mlir:[[# @LINE + 8]]:11: warning: gpu.alloc: 400 bytes of device memory allocated here were never freed
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
  return
}
