// sm_90's transaction barriers (mbarrier.arrive.expect_tx,
// try_wait.parity), of the nvgpu dialect, compile for sm_90a: the NVVM
// dialect writes them as inline PTX, which convert-nvvm-to-llvm makes
// LLVM's inline assembly. The host backend refuses them by name, as sm_90
// asynchronous operations it does not model (errors/unsupported/nvgpu-host.mlir).
// REQUIRES: cuda-runner, ptxas
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90a --print-ir-after-all %s 2>&1 | FileCheck %s
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_90a --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=FATBIN

// CHECK-LABEL: IR Dump After ConvertNVGPUToNVVMPass
// CHECK:         nvvm.mbarrier.init
// CHECK:         nvvm.mbarrier.arrive.expect_tx
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-LABEL: IR Dump After ConvertNVVMToLLVMPass
// CHECK:         llvm.inline_asm {{.*}}mbarrier.try_wait.parity
// FATBIN: elf sm_90 (ELF for sm_90)

!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 0 initializes a barrier for the 32 threads; each arrives
    // expecting no bytes, then waits for phase 0 to complete.
    gpu.func @transaction_barrier(%out: memref<32xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %phase = arith.constant false
      %ticks = arith.constant 1000000 : index
      %bytes = arith.constant 0 : index
      %lane = gpu.thread_id x
      %bar = nvgpu.mbarrier.create -> !barrier
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%c0], %c32 : !barrier
      }
      gpu.barrier
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barrier
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !barrier
      %i = arith.index_cast %lane : index to i32
      memref.store %i, %out[%lane] : memref<32xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = gpu.alloc () : memref<32xi32>
    gpu.launch_func @kernels::@transaction_barrier blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%out : memref<32xi32>)
    return
  }
}
