// A kernel that reaches llvm.unreachable must fail its launch, as it does on
// the host backend: the AMDGPU code generator would otherwise take the
// unreachable block as a promise, fold the branch to it away and store for
// every thread. The code object keeps the branch and traps there.
// REQUIRES: hip-runner
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx90a --dump-gpu-binary=%t %s
// RUN: llvm-objdump -d %t/kernels.hsaco | FileCheck %s

// CHECK-LABEL: <stop>:
// CHECK:         s_cbranch
// CHECK:         global_store_dword
// CHECK:         s_trap 2

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
