// RUN: %gpu-runner %s | FileCheck %s

// A program already lowered to the LLVM dialect by upstream's conventions runs
// as it is: the upstream mgpu functions are provided too.

llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @mgpuStreamSynchronize(!llvm.ptr)
llvm.func @mgpuStreamDestroy(!llvm.ptr)
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
llvm.func @mgpuMemset32(!llvm.ptr, i32, i64, !llvm.ptr)
llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
llvm.func @printI64(i64)
llvm.func @printNewline()

llvm.func @main() {
  %bytes = llvm.mlir.constant(16 : i64) : i64
  %count = llvm.mlir.constant(4 : i64) : i64
  %no = llvm.mlir.constant(0 : i8) : i8
  %value = llvm.mlir.constant(1234 : i32) : i32
  %one = llvm.mlir.constant(1 : i64) : i64
  %stream = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  %dev = llvm.call @mgpuMemAlloc(%bytes, %stream, %no) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.call @mgpuMemset32(%dev, %value, %count, %stream) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
  %host = llvm.alloca %count x i32 : (i64) -> !llvm.ptr
  llvm.call @mgpuMemcpy(%host, %dev, %bytes, %stream) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%stream) : (!llvm.ptr) -> ()
  llvm.call @mgpuMemFree(%dev, %stream) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuStreamSynchronize(%stream) : (!llvm.ptr) -> ()
  llvm.call @mgpuStreamDestroy(%stream) : (!llvm.ptr) -> ()
  %last = llvm.getelementptr %host[3] : (!llvm.ptr) -> !llvm.ptr, i32
  %v = llvm.load %last : !llvm.ptr -> i32
  %w = llvm.sext %v : i32 to i64
  // CHECK: 1234
  llvm.call @printI64(%w) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}
