// cf.assert in a kernel compiles for a GPU: upstream's NVVM lowering makes
// it a call of CUDA's __assertfail with the file, line and function of its
// location, the strings the host backend prints too
// (errors/asserts/kernel-assert-locations.mlir).
// REQUIRES: cuda-runner
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %s 2>&1 | FileCheck %s

// CHECK-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// CHECK-DAG:     llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-DAG:     "callee_file.cc\00"
// CHECK-DAG:     "callee_func_name\00"
// CHECK-DAG:     "x must be 0\00"
// CHECK:         llvm.func @check
// CHECK:           llvm.call @__assertfail
// CHECK-LABEL: IR Dump After ModuleToBinaryWithIR
// CHECK:         gpu.binary @kernels

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%out: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %ok = arith.cmpi eq, %t, %c0 : index
      cf.assert %ok, "x must be 0" loc(callsite(callsite("callee_func_name"("callee_file.cc":7:9) at "caller.cc":10:3) at "main.cc":20:5))
      %one = arith.constant 1 : i32
      memref.store %one, %out[%t] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<4xi32>)
    return
  }
}
