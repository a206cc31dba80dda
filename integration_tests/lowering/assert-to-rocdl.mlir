// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-assert-to-rocdl))' %s | FileCheck %s

// cf.assert in a kernel for HIP becomes what HIP's __assert_fail does
// (amd_device_functions.h): the format, the file, the line, the function
// and the message sent to stderr through the device libraries' hostcall
// printf (strings counted with their NUL, the message the last piece),
// then a trap, for the threads whose condition is false. The strings are
// constants of the kernel module (address space 4), shared by the asserts
// that use them. The program runs in standin/hip-kernel-assert.mlir.

// CHECK-DAG: llvm.mlir.global internal constant @[[FORMAT:.*]]("%s:%u: %s: Device-side assertion `%s' failed.\0A\00") {addr_space = 4 : i32}
// CHECK-DAG: llvm.mlir.global internal constant @[[FILE:.*]]("device.hip\00") {addr_space = 4 : i32}
// CHECK-DAG: llvm.mlir.global internal constant @[[FUNCTION:.*]]("check_thread\00") {addr_space = 4 : i32}
// CHECK-DAG: llvm.mlir.global internal constant @[[MESSAGE:.*]]("not ok\00") {addr_space = 4 : i32}
// CHECK-DAG: llvm.func @__ockl_fprintf_stderr_begin() -> i64
// CHECK-DAG: llvm.func @__ockl_fprintf_append_string_n(i64, !llvm.ptr, i64, i32) -> i64
// CHECK-DAG: llvm.func @__ockl_fprintf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64

// CHECK-LABEL: gpu.func @check
// CHECK:         %[[FAILS:.*]] = arith.xori %{{.*}}, %true : i1
// CHECK:         scf.if %[[FAILS]] {
// CHECK-DAG:       %[[NO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:       %[[YES:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:           %[[D0:.*]] = llvm.call @__ockl_fprintf_stderr_begin()
// CHECK:           llvm.mlir.addressof @[[FORMAT]]
// CHECK:           %[[D1:.*]] = llvm.call @__ockl_fprintf_append_string_n(%[[D0]], %{{.*}}, %{{.*}}, %[[NO]])
// CHECK:           llvm.mlir.addressof @[[FILE]]
// CHECK:           %[[LEN:.*]] = llvm.mlir.constant(11 : i64) : i64
// CHECK:           %[[D2:.*]] = llvm.call @__ockl_fprintf_append_string_n(%[[D1]], %{{.*}}, %[[LEN]], %[[NO]])
// CHECK:           %[[LINE:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK:           %[[D3:.*]] = llvm.call @__ockl_fprintf_append_args(%[[D2]], %[[YES]], %[[LINE]], {{.*}}, %[[NO]])
// CHECK:           llvm.mlir.addressof @[[FUNCTION]]
// CHECK:           %[[D4:.*]] = llvm.call @__ockl_fprintf_append_string_n(%[[D3]], {{.*}}, %[[NO]])
// CHECK:           llvm.mlir.addressof @[[MESSAGE]]
// CHECK:           llvm.call @__ockl_fprintf_append_string_n(%[[D4]], {{.*}}, %[[YES]])
// CHECK-NEXT:      llvm.intr.trap
// CHECK-NEXT:    }
// CHECK:         scf.if
// CHECK:           llvm.mlir.addressof @[[FORMAT]]
// CHECK-NOT:     cf.assert

gpu.module @kernels {
  gpu.func @check(%ok: i1, %also: i1) kernel {
    cf.assert %ok, "not ok" loc("check_thread"("device.hip":12:3))
    cf.assert %also, "not ok" loc("check_thread"("device.hip":13:3))
    gpu.return
  }
}
