// Ops that only mean something in a kernel, used in host code, are named
// with where they belong.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  // CHECK: kernel-op-in-host-code.mlir:[[# @LINE + 1]]:3: error: 'gpu.barrier' cannot be lowered: this op runs only inside kernels: put it in the body of a gpu.launch, or in a gpu.func kernel that gpu.launch_func launches
  gpu.barrier
  return
}
