//===- WorkgroupMemoryToNVVM.h - Workgroup memory for NVVM ------*- C++ -*-===//
//
// Two passes for CUDA kernel modules, on what upstream's NVVM lowering gets
// wrong about workgroup (shared) memory:
//
// - `gpu-runner-dynamic-shared-size-to-nvvm`, before it: the size of
//   gpu.dynamic_shared_memory's memref, which upstream's lowering gives as
//   0, is the launch's dynamic shared memory size, the %dynamic_smem_size
//   register:
//
//     %raw = gpu.dynamic_shared_memory : memref<?xi8,
//     #gpu.address_space<workgroup>> %bytes = memref.dim %raw, %c0
//     // becomes
//     %bytes = arith.index_cast (nvvm.read.ptx.sreg.dynamic.smem.size)
//
// - `gpu-runner-align-shared-globals`, after it: every shared variable it
//   defines without an alignment gets 16 bytes. LLVM's optimizer takes a
//   defined global to have DataLayout::getPreferredAlign (16 bytes for one
//   larger than 16 bytes) and marks the accesses so, while the NVPTX code
//   generator declares it `.align` of its type's alignment only (4 for an
//   array of i32): the IR then promises an alignment the PTX does not give.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_WORKGROUPMEMORYTONVVM_H
#define GPU_RUNNER_LOWERING_DEVICE_WORKGROUPMEMORYTONVVM_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createDynamicSharedSizeToNVVM();
std::unique_ptr<mlir::Pass> createAlignSharedGlobals();
/// Makes the passes known to gpu-runner-opt by their flags.
void registerWorkgroupMemoryToNVVM();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_WORKGROUPMEMORYTONVVM_H
