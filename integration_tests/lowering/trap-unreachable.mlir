// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-trap-unreachable))' %s | FileCheck %s

// Every llvm.unreachable of a lowered kernel module gets a trap before it,
// unless a trap already comes first; host code is left to the host's own
// TrapUnreachable.
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL: llvm.func @stop
// CHECK:         llvm.cond_br
// CHECK-NEXT:    ^bb1:
// CHECK-NEXT:      llvm.intr.trap
// CHECK-NEXT:      llvm.unreachable
// CHECK-NEXT:    ^bb2:
// CHECK-NEXT:      llvm.cond_br
// CHECK-NEXT:    ^bb3:
// CHECK-NEXT:      llvm.intr.trap
// CHECK-NEXT:      llvm.unreachable
// CHECK-NEXT:    ^bb4:
// CHECK-NEXT:      llvm.intr.ubsantrap <{failureKind = 117 : i8}>
// CHECK-NEXT:      llvm.unreachable
// CHECK-LABEL: llvm.func @host
// CHECK-NEXT:    llvm.unreachable
gpu.module @kernels {
  llvm.func @stop(%c: i1, %d: i1) {
    llvm.cond_br %c, ^bb1, ^bb4
  ^bb1:
    llvm.unreachable
  ^bb4:
    llvm.cond_br %d, ^bb2, ^bb3
  ^bb2:
    llvm.intr.trap
    llvm.unreachable
  ^bb3:
    "llvm.intr.ubsantrap"() <{failureKind = 117 : i8}> : () -> ()
    llvm.unreachable
  }
}
llvm.func @host() {
  llvm.unreachable
}
