// A program that calls the upstream mgpu functions itself with a memref
// descriptor pointer that points nowhere: an error at the op the function
// stands for, not an internal error of gpu-runner.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

llvm.func @mgpuMemHostRegisterMemRef(i64, !llvm.ptr, i64)

llvm.func @main() {
  %one = llvm.mlir.constant(1 : i64) : i64
  %bad = llvm.mlir.constant(-16 : i64) : i64
  %descriptor = llvm.inttoptr %bad : i64 to !llvm.ptr
  llvm.call @mgpuMemHostRegisterMemRef(%one, %descriptor, %one) : (i64, !llvm.ptr, i64) -> ()
  llvm.return
}

// CHECK: error: gpu.host_register: invalid memory access at 0x{{[0-9a-f]+}}: the op reached memory outside what the program allocated (host memory is not checked before an op runs)
