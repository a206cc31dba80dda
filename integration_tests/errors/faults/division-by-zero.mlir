// An integer division by zero traps on the CPU; it is reported as an error
// in the kernel, or in the program's host code, never as a crash.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: %expect-exit-1 %gpu-runner %s -e host --entry-point-result=i32 2>&1 | FileCheck %s --check-prefix=HOST

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @divide(%out: memref<4xi32>, %d: i32) kernel {
      %tid = gpu.thread_id x
      %t = arith.index_cast %tid : index to i32
      %q = arith.divsi %t, %d : i32
      memref.store %q, %out[%tid] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %dev = gpu.alloc () : memref<4xi32>
    // KERNEL: division-by-zero.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'divide': integer division by zero (or of the most negative value by -1) in block (0, 0, 0) (the kernel runs its block's threads as one loop, so the thread is not known)
    gpu.launch_func @kernels::@divide blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<4xi32>, %zero : i32)
    gpu.dealloc %dev : memref<4xi32>
    return
  }

  // HOST: error: integer division by zero (or of the most negative value by -1) in the program's host code (outside any kernel)
  func.func @host() -> i32 {
    %seven = arith.constant 7 : i32
    %zero = arith.constant 0 : i32
    // The divisor comes out of inline assembly, so that the compiler cannot
    // see that it is zero.
    %d = llvm.inline_asm has_side_effects "mov $1, $0", "=r,r" %zero : (i32) -> i32
    %q = arith.divsi %seven, %d : i32
    return %q : i32
  }
}
