//===- HostKernels.h - What host kernels leave for their launches ---------===//
//
// gpu-runner-host-kernels compiles each kernel into host functions and
// annotates the kernel with what the lowering of its launches needs
// (runtime/LaunchFuncToLLVM.cpp): these attributes are that contract.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_HOSTKERNELS_H
#define GPU_RUNNER_LOWERING_HOST_HOSTKERNELS_H

#include "llvm/ADT/StringRef.h"

namespace gpu_runner {

/// Attributes gpu-runner-host-kernels puts on a kernel for the lowering of
/// its launches: the host function to start (a symbol), the bytes of its
/// static workgroup memory (i64), and whether its threads are fibers (unit).
inline constexpr llvm::StringLiteral kHostEntryAttrName =
    "gpu_runner.host_entry";
inline constexpr llvm::StringLiteral kHostStaticSharedBytesAttrName =
    "gpu_runner.static_shared_bytes";
inline constexpr llvm::StringLiteral kHostUsesFibersAttrName =
    "gpu_runner.uses_fibers";
/// A kernel that runs a subgroup at a time where its block's size in x is a
/// multiple of the subgroup size (unit; SubgroupVectors.h): for the
/// reader, the launch does not depend on it.
inline constexpr llvm::StringLiteral kHostSubgroupVectorsAttrName =
    "gpu_runner.subgroup_vectors";
/// The attribute of an scf.for with its LLVM loop annotation
/// (LLVM::LoopAnnotationAttr), which scf-to-cf and cf-to-llvm leave on the
/// loop's latch branch and gpu-runner-gpu-to-llvm makes the branch's own.
inline constexpr llvm::StringLiteral kLoopAnnotationAttrName =
    "llvm.loop_annotation";
/// A kernel without fibers whose thread loops can start again after a thread
/// that failed a cf.assert (unit; kHostKernelResumesAfterAssertions).
inline constexpr llvm::StringLiteral kHostResumesAfterAssertionsAttrName =
    "gpu_runner.resumes_after_assertions";

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_HOSTKERNELS_H
