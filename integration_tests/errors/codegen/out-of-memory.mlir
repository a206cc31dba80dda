// Running out of memory in LLVM is an error that says what the runner was
// doing, with exit status 1, not "LLVM ERROR: out of memory" and an abort.
// An 800 MB initializer under a 3 GB address-space limit: LLVM IR holds
// the initializer as a constant of its own.
//
// Under a sanitizer, which reserves terabytes of address space, no limit
// can be set.
// UNSUPPORTED: sanitizers
//
// RUN: %expect-exit-1 sh -c 'ulimit -v 3000000; %gpu-runner %s' 2>&1 | FileCheck %s
// CHECK: error: out of memory while translating the program to LLVM IR

memref.global "private" constant @big : memref<200000000xf32> = dense<1.0>

func.func @main() {
  %m = memref.get_global @big : memref<200000000xf32>
  return
}
