// A gpu.binary holds kernels already compiled for a GPU (here a fatbin for
// sm_90): the host backend has nothing to run in it, and says so at the
// binary before the program runs, not as a runtime function it lacks.
// RUN: %expect-exit-1 %gpu-runner-host %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {gpu.container_module} {
  // CHECK: gpu-binary-host.mlir:[[@LINE+1]]:3: error: a gpu.binary holds kernels compiled for a GPU, which the host backend cannot run; give the kernels' source as a gpu.module, or run the program with gpu-runner-cuda or gpu-runner-hip
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, "FATBIN">]

  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
    return
  }
}
