// A kernel thread that reaches llvm.unreachable stops the program with an
// error at the launch, naming the kernel and the block, also at -O0 (where
// the block used to run into the code after it). On a GPU an
// `unreachable` that is reached is undefined behaviour; the host backend
// reports it, as it reports llvm.intr.trap (trap.mlir).
// RUN: %expect-exit-1 %gpu-runner -O0 %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<4xi32>) kernel {
      %bid = gpu.block_id x
      %c2 = arith.constant 2 : index
      %bad = arith.cmpi eq, %bid, %c2 : index
      cf.cond_br %bad, ^never, ^store
    ^never:
      llvm.unreachable
    ^store:
      %v = arith.constant 1 : i32
      memref.store %v, %out[%bid] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = gpu.alloc () : memref<4xi32>
    // CHECK: unreachable-kernel.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'k': reached unreachable code (llvm.unreachable, or an op the program says is never reached) in block (2, 0, 0)
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4xi32>)
    gpu.dealloc %out : memref<4xi32>
    return
  }
}
