// A kernel that reaches llvm.unreachable must fail its launch, as it does on
// the host backend: NVPTX would otherwise end the thread with `exit`, and
// the launch would succeed with the thread's work silently missing. The
// lowered kernel traps there before it becomes PTX.
// REQUIRES: cuda-runner
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %s 2>&1 | FileCheck %s

// CHECK-LABEL: IR Dump After TrapUnreachable
// CHECK:         llvm.func @stop
// CHECK:           llvm.intr.trap
// CHECK-NEXT:      llvm.unreachable
// CHECK:           llvm.store

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stop(%out: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %beyond = arith.cmpi uge, %t, %c2 : index
      cf.cond_br %beyond, ^dead, ^live
    ^dead:
      llvm.unreachable
    ^live:
      %one = arith.constant 1 : i32
      memref.store %one, %out[%t] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@stop blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<4xi32>)
    return
  }
}
