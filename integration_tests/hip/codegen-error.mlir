// What the AMDGPU code generator cannot compile is an error at the
// gpu.module, with LLVM's message, and exit status 1: here workgroup memory
// past the 64 KiB that a work-group of gfx90a has (AMDGPUUsage, "LDS").
// Before, LLVM's default handler printed the message with no location and
// called exit() from the compiling thread. Many runs at once all fail
// alike.
// REQUIRES: hip-runner
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx90a %s 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %python %S/../Inputs/run-concurrently.py 10 %gpu-runner-hip --compile-only --no-cache --gpu-chip=gfx90a %s 2>&1 | FileCheck %s --check-prefix=MANY

// MANY-COUNT-10: exit status 1
// MANY-NOT: exit status

module attributes {gpu.container_module} {
  // CHECK: codegen-error.mlir:[[# @LINE + 2]]:3: error: cannot compile gpu.module @kernels for #rocdl.target<{{.*}}>: local memory (131072) exceeds limit (65536) in function 'big'
  // CHECK-NOT: PLEASE
  gpu.module @kernels {
    gpu.func @big(%a: memref<64xf32>)
        workgroup(%tile : memref<32768xf32, #gpu.address_space<workgroup>>)
        kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xf32>
      memref.store %x, %tile[%i] : memref<32768xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %tile[%i] : memref<32768xf32, #gpu.address_space<workgroup>>
      memref.store %y, %a[%i] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %a = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@big blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.dealloc %a : memref<64xf32>
    return
  }
}
