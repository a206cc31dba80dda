// What the HIP stand-in does not run yet, refused by name when the runtime
// gives it the module's kernel IR, never run with a wrong result: here
// device printf, which the ROCm device libraries make a hostcall. Also
// refused today: device assert; the cross-lane intrinsics the pipeline does
// not make (ds_swizzle, DPP, permlane); the AMDGPU-specific atomic and
// buffer intrinsics; inline assembly; a 32-bit local or private pointer
// kept in memory or turned into an integer. The module still loads (a
// gfx90a code object), and the launch never happens. What runs is in
// hip-kernels-run.mlir and hip-wave-ops.mlir.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// HIP:       hipModuleLoadData(format=code object) -> hipSuccess [*module=[[M:module#[0-9]+]]]
// HIP-NEXT:  gpuRunnerStandinModuleAttachIR(module=[[M]]{{.*}}) -> hipErrorNotSupported
// HIP-NOT:   hipModuleLaunchKernel

module attributes {gpu.container_module} {
  // CHECK: kernels-refused.mlir:[[# @LINE + 1]]:3: error: gpu.binary: hipErrorNotSupported: {{.*}}the driver could not take the kernels' IR:
  gpu.module @kernels {
    gpu.func @swap(%data: memref<64xf32>) kernel {
      %thread = gpu.thread_id x
      %v = memref.load %data[%thread] : memref<64xf32>
      gpu.printf "%f\n", %v : f32
      gpu.return
    }
  }
  // CHECK-NEXT: the kernel IR uses what the stand-in does not implement: {{.*}}llvm.amdgcn.s.sendmsg is not implemented by the HIP stand-in

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %data = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@swap blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%data : memref<64xf32>)
    gpu.dealloc %data : memref<64xf32>
    return
  }
}
