// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func private @printI64(i64)

func.func @main() {
  // CHECK: kernel-id-in-host-code.mlir:[[# @LINE + 1]]:8: error: 'gpu.thread_id' cannot be lowered: this op runs only inside kernels: put it in the body of a gpu.launch, or in a gpu.func kernel that gpu.launch_func launches
  %t = gpu.thread_id x
  %i = arith.index_cast %t : index to i64
  call @printI64(%i) : (i64) -> ()
  return
}
