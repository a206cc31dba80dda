// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// A failed cf.assert of host code calls mgpuAssertFailedAt with its message
// and the loc string of its op: the cf.assert, or the op a run-time check
// was made for (gpu-runner-verify-host-code names it). No abort().

// CHECK-DAG: llvm.mlir.global private constant @[[CHECK_LOC:.*]]("memref.load@{{.*}}assert-to-mgpu-call.mlir:[[# @LINE + 26]]:3\00")
// CHECK-DAG: llvm.mlir.global private constant @[[CHECK_MSG:.*]]("out-of-bounds access\00")
// CHECK-DAG: llvm.func @mgpuAssertFailedAt(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global private constant @[[LOC:.*]]("cf.assert@{{.*}}assert-to-mgpu-call.mlir:[[# @LINE + 22]]:3\00")
// CHECK-DAG: llvm.mlir.global private constant @[[MSG:.*]]("must hold\00")
// CHECK-NOT: abort

// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[OK:.*]]: i1
// CHECK:   llvm.cond_br %[[OK]], ^[[AFTER:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK: ^[[FAIL]]:
// CHECK:   %[[M:.*]] = llvm.mlir.addressof @[[MSG]]
// CHECK:   %[[L:.*]] = llvm.mlir.addressof @[[LOC]]
// CHECK:   llvm.call @mgpuAssertFailedAt(%[[M]], %[[L]])
// CHECK:   llvm.unreachable
// CHECK: ^[[AFTER]]:
// CHECK:   llvm.cond_br %[[OK]], ^[[AFTER2:bb[0-9]+]], ^[[FAIL2:bb[0-9]+]]
// CHECK: ^[[FAIL2]]:
// CHECK:   %[[M2:.*]] = llvm.mlir.addressof @[[CHECK_MSG]]
// CHECK:   %[[L2:.*]] = llvm.mlir.addressof @[[CHECK_LOC]]
// CHECK:   llvm.call @mgpuAssertFailedAt(%[[M2]], %[[L2]])
// CHECK:   llvm.unreachable
// CHECK: ^[[AFTER2]]:
// CHECK:   llvm.return
func.func @f(%ok: i1) {
  cf.assert %ok, "must hold"
  cf.assert %ok, "out-of-bounds access" {gpu_runner.runtime_op_name = "memref.load"}
  return
}
