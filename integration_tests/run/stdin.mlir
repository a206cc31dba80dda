// A program read from stdin, and the IR printed after lowering (on stderr,
// so that stdout holds only what the program prints).
// RUN: cat %s | %gpu-runner - | FileCheck %s
// RUN: cat %s | %gpu-runner --print-ir-after-lowering - 2>&1 >/dev/null | FileCheck %s --check-prefix=IR

// CHECK: 7
// IR: llvm.mlir.global private constant {{.*}}("gpu.memset@<stdin>:[[# @LINE + 7]]:3\00")
// IR: llvm.call @mgpuMemset32At(

func.func private @printI64(i64)
func.func @main() {
  %seven = arith.constant 7 : i32
  %dev = gpu.alloc host_shared () : memref<i32>
  gpu.memset %dev, %seven : memref<i32>, i32
  %v = memref.load %dev[] : memref<i32>
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  gpu.dealloc %dev : memref<i32>
  return
}
