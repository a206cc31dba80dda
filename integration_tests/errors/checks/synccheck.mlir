// synccheck: the threads of a block wait at different barriers, a hang or
// undefined behaviour on a GPU ("__syncthreads() is allowed in conditional
// code but only if the conditional evaluates identically across the entire
// thread block", CUDA C++ Programming Guide). The host backend reports it
// always (errors/hangs/); under --check=synccheck it is synccheck's finding,
// named and counted in the summary.
// RUN: %expect-exit-1 %gpu-runner %s --check=synccheck 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=UNCHECKED

// CHECK: synccheck.mlir:[[# @LINE + 12]]:9: error: synccheck: gpu.barrier: deadlock in kernel 'split', block (0, 0, 0): thread (0, 0, 0) waits at this barrier, but thread (16, 0, 0) waits at another one, gpu.barrier at {{.*}}synccheck.mlir:[[# @LINE + 14]]:9; all the threads of a block must wait at the same barrier
// CHECK-NEXT: --check=synccheck: 1 error (synccheck 1)
// UNCHECKED: synccheck.mlir:[[# @LINE + 10]]:9: error: gpu.barrier: deadlock in kernel 'split'
// UNCHECKED-NOT: --check

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @split(%out: memref<32xi32>) kernel {
      %t = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %low = arith.cmpi ult, %t, %c16 : index
      scf.if %low {
        gpu.barrier
      } else {
        gpu.barrier
      }
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %out[%t] : memref<32xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = gpu.alloc () : memref<32xi32>
    gpu.launch_func @kernels::@split blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xi32>)
    gpu.dealloc %out : memref<32xi32>
    return
  }
}
