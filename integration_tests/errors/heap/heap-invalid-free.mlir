// free of a pointer that no allocator returned, outside the program's heap:
// the C library's free faults or aborts on it, and that is reported as the
// program's heap corruption, not as a crash of gpu-runner.
// Built with AddressSanitizer, the program's malloc and free are the
// sanitizer's (wrappers/common/ProgramHeap.h), which checks heap memory its
// own way.
// UNSUPPORTED: sanitizers
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

llvm.func @free(!llvm.ptr)

llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %p = llvm.inttoptr %a : i64 to !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// CHECK: error: heap corruption: the C library's free {{.*}}: the program wrote outside memory it allocated, or freed a pointer malloc did not return
