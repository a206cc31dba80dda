//===- AmdgpuLowering.h - AMDGPU IR, for the host -------------------------===//
//
// What the HIP stand-in adds to KernelCompiler's rewrite for the IR of an
// AMDGPU code object (triple amdgcn-amd-amdhsa): the module made fit for the
// shared steps (allocas moved out of the private address space, 32-bit
// pointers that the host would widen refused), and the calls of AMDGPU
// intrinsics rewritten into reads of the thread's context and calls of the
// same runtime the NVVM IR calls (KernelAbi.h), with the semantics
// AMDGPUUsage and the HSA dispatch packet give them. What is not mapped is
// refused, by name: "llvm.amdgcn.ds.bpermute is not implemented".
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_AMDGPULOWERING_H
#define GPU_RUNNER_STANDIN_AMDGPULOWERING_H

#include "standin/NvvmLowering.h"

#include <cstdint>
#include <functional>
#include <string>

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace gpu_runner {
namespace standin {

/// Whether `module` is AMDGPU IR.
bool isAmdgpuModule(const llvm::Module &module);

/// Readies AMDGPU IR for the shared rewrite, before it: allocas in the
/// private address space (5) become host allocas; a 32-bit pointer kept in
/// memory or turned into an integer, whose width the host would change, is
/// given to `refuse`.
void prepareAmdgpuModule(
    llvm::Module &module,
    const std::function<void(const std::string &)> &refuse);

/// Rewrites `call` of an AMDGPU module (an intrinsic, inline assembly or an
/// external function) and erases it. Returns false, with `why`, when the
/// HIP stand-in does not implement it.
bool lowerAmdgpuCall(llvm::CallBase &call, const LoweringContext &context,
                     std::string &why);

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_AMDGPULOWERING_H
