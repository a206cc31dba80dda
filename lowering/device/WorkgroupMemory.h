//===- WorkgroupMemory.h - Workgroup memory for the GPU targets -*- C++ -*-===//
//
// Passes for kernel modules, on what the upstream lowerings get wrong about
// workgroup (shared, LDS) memory:
//
// - `gpu-runner-dynamic-shared-size-to-nvvm` (CUDA) and
//   `gpu-runner-dynamic-shared-size-to-rocdl` (HIP), before the target's
//   lowering: the size of gpu.dynamic_shared_memory's memref, which both
//   upstream lowerings give as 0, is the launch's dynamic shared memory
//   size. On NVIDIA GPUs the %dynamic_smem_size register holds it:
//
//     %raw = gpu.dynamic_shared_memory
//         : memref<?xi8, #gpu.address_space<workgroup>>
//     %bytes = memref.dim %raw, %c0
//     // becomes
//     %bytes = arith.index_cast (nvvm.read.ptx.sreg.dynamic.smem.size)
//
//   AMD GPUs have no such register. The kernel dispatch packet's
//   group_segment_size is the work-group's whole LDS allocation, the
//   kernel's static LDS and the launch's dynamic part (HSA Platform System
//   Architecture Specification, "Kernel Dispatch Packet"; HIP adds the
//   launch's sharedMemBytes to the kernel's group segment size), and
//   llvm.amdgcn.groupstaticsize the static part (AMDGPUUsage):
//
//     %bytes = (load i32 from llvm.amdgcn.dispatch.ptr + 28)
//              - llvm.amdgcn.groupstaticsize
//
// - `gpu-runner-align-shared-globals` (CUDA), after the lowering: every
//   shared variable it defines without an alignment gets 16 bytes. LLVM's
//   optimizer takes a defined global to have DataLayout::getPreferredAlign
//   (16 bytes for one larger than 16 bytes) and marks the accesses so,
//   while the NVPTX code generator declares it `.align` of its type's
//   alignment only (4 for an array of i32): the IR then promises an
//   alignment the PTX does not give. AMDGPU's LDS layout follows the
//   optimizer's alignment itself.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_WORKGROUPMEMORY_H
#define GPU_RUNNER_LOWERING_DEVICE_WORKGROUPMEMORY_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createDynamicSharedSizeToNVVM();
std::unique_ptr<mlir::Pass> createDynamicSharedSizeToROCDL();
std::unique_ptr<mlir::Pass> createAlignSharedGlobals();
/// Makes the passes known to gpu-runner-opt by their flags.
void registerWorkgroupMemory();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_WORKGROUPMEMORY_H
