//===- NvvmLowering.h - NVVM intrinsics and inline PTX, for the host ------===//
//
// The part of KernelCompiler that rewrites calls: each NVVM intrinsic, each
// piece of inline PTX that libdevice holds, and each external function a
// kernel may call (vprintf, __assertfail) becomes host IR or a call of the
// stand-in's runtime (KernelAbi.h), with the semantics the PTX ISA gives the
// instruction. What is not mapped is refused, by name: never a silent
// wrong value.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_NVVMLOWERING_H
#define GPU_RUNNER_STANDIN_NVVMLOWERING_H

#include "standin/KernelAbi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionCallee;
class Instruction;
class Module;
class StructType;
class Type;
class Value;
} // namespace llvm

namespace gpu_runner {
namespace standin {

/// What the lowering needs of the module being rewritten.
struct LoweringContext {
  llvm::Module *module = nullptr;
  /// The IR type of ThreadContext.
  llvm::StructType *contextType = nullptr;
  /// Lanes per warp: kWarpSize, or the AMDGPU code object's wave size.
  uint32_t warpSize = kWarpSize;
  /// Numbers the call site `at` for the runtime's messages: `what` it is.
  std::function<uint32_t(llvm::Instruction *at, const std::string &what)>
      addSite;
  /// The runtime function `name` (KernelAbi.h), of type `type`.
  llvm::FunctionCallee getRuntime(llvm::StringRef name, llvm::Type *result,
                                  llvm::ArrayRef<llvm::Type *> params) const;
  /// Marks an instruction the access checks must leave alone (reads of
  /// the context).
  static void trust(llvm::Instruction *instruction);
  static bool isTrusted(const llvm::Instruction *instruction);
};

/// The names of runtime functions whose callers need a fiber per thread.
bool isWaitingRuntimeFunction(llvm::StringRef name);

/// Rewrites `call`, a call of an NVVM intrinsic, of inline assembly or of
/// an external function, and erases it. Returns false, with `why`, when the
/// stand-in does not implement it.
bool lowerCall(llvm::CallBase &call, const LoweringContext &context,
               std::string &why);

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_NVVMLOWERING_H
