// What the HIP stand-in does not run yet, refused by name when the runtime
// gives it the module's kernel IR, never run with a wrong result: here DPP
// (rocdl.update.dpp) and ds_swizzle's rotate mode (an offset of 0xc000 or
// more), cross-lane instructions the pipeline does not make. Also refused
// today: permlane; the AMDGPU-specific atomic and buffer intrinsics; inline
// assembly; hostcall services other than printf; a 32-bit local or private
// pointer kept in memory or turned into an integer. The module still loads
// (a gfx90a code object), and the launch never happens. What runs is in
// hip-kernels-run.mlir, hip-wave-ops.mlir and hip-swizzle.mlir.
// REQUIRES: hip-standin-lib, hip-runner
// RUN: %expect-exit-1 env GPU_RUNNER_STANDIN_TRACE=%t.hip %gpu-runner-hip-standin --no-cache %s 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=HIP < %t.hip

// HIP:       hipModuleLoadData(format=code object) -> hipSuccess [*module=[[M:module#[0-9]+]]]
// HIP-NEXT:  gpuRunnerStandinModuleAttachIR(module=[[M]]{{.*}}) -> hipErrorNotSupported
// HIP-NOT:   hipModuleLaunchKernel

module attributes {gpu.container_module} {
  // CHECK: kernels-refused.mlir:[[# @LINE + 1]]:3: error: gpu.binary: hipErrorNotSupported: {{.*}}the driver could not take the kernels' IR:
  gpu.module @kernels {
    gpu.func @swap(%data: memref<64xi32>) kernel {
      %thread = gpu.thread_id x
      %v = memref.load %data[%thread] : memref<64xi32>
      %d = rocdl.update.dpp %v, %v with 273, 15, 15, false : i32
      %rotate = llvm.mlir.constant(49184 : i32) : i32
      %s = rocdl.ds_swizzle %v, %rotate : (i32, i32) -> i32
      %sum = arith.addi %d, %s : i32
      memref.store %sum, %data[%thread] : memref<64xi32>
      // The device libraries' hostcall, for its function-call service (1).
      %null = llvm.mlir.zero : !llvm.ptr
      %service = llvm.mlir.constant(1 : i32) : i32
      %w = llvm.mlir.constant(0 : i64) : i64
      %r = llvm.call @__ockl_hostcall_internal(%null, %service, %w, %w, %w, %w, %w, %w, %w, %w) : (!llvm.ptr, i32, i64, i64, i64, i64, i64, i64, i64, i64) -> vector<2xi64>
      gpu.return
    }
    llvm.func @__ockl_hostcall_internal(!llvm.ptr, i32, i64, i64, i64, i64, i64, i64, i64, i64) -> vector<2xi64>
  }
  // CHECK-NEXT: the kernel IR uses what the stand-in does not implement: llvm.amdgcn.update.dpp.i32 is not implemented by the HIP stand-in; llvm.amdgcn.ds.swizzle with an offset of 0xc000 or more (rotate and FFT modes) is not implemented by the HIP stand-in; __ockl_hostcall_internal is called for hostcall service 1, which the HIP stand-in does not serve (it serves printf, 2)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %data = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@swap blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%data : memref<64xi32>)
    gpu.dealloc %data : memref<64xi32>
    return
  }
}
