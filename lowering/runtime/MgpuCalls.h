//===- MgpuCalls.h - Emitting calls of the mgpu runtime ABI ---------------===//
//
// The lowering names runtime functions only through `MgpuFunction`, an enum
// generated from wrappers/MgpuAbi.def, HostKernelAbi.def and
// DeviceKernelAbi.def, and derives each function's LLVM type from its C
// prototype there: a call the wrappers do not provide, or one with the wrong
// signature, cannot be emitted.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_RUNTIME_MGPUCALLS_H
#define GPU_RUNNER_LOWERING_RUNTIME_MGPUCALLS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace gpu_runner {

enum class MgpuFunction {
#define MGPU_FUNCTION(RET, NAME, PARAMS) NAME,
#include "wrappers/MgpuAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS) NAME,
#include "wrappers/HostKernelAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS) NAME,
#include "wrappers/DeviceKernelAbi.def"
};

/// The C name of `fn`.
llvm::StringRef getMgpuFunctionName(MgpuFunction fn);

/// The runtime function called `name`, if there is one.
std::optional<MgpuFunction> lookupMgpuFunction(llvm::StringRef name);

/// The LLVM type of `fn`, derived from its C prototype.
mlir::LLVM::LLVMFunctionType getMgpuFunctionType(mlir::MLIRContext *context,
                                                 MgpuFunction fn);

/// Emits a call of `fn` at the builder's insertion point, declaring the
/// function in the enclosing module first if it is not declared yet. Fails
/// (with a diagnostic at `loc`) when the module already declares the name
/// with another type.
mlir::FailureOr<mlir::LLVM::CallOp> createMgpuCall(mlir::OpBuilder &builder,
                                                   mlir::Location loc,
                                                   MgpuFunction fn,
                                                   mlir::ValueRange args);

/// The attribute by which an op made from another one (a gpu.shuffle that
/// a gpu.rotate became) names that one, for the runtime's errors to name
/// the op the program holds.
inline constexpr llvm::StringLiteral kRuntimeOpNameAttrName =
    "gpu_runner.runtime_op_name";

/// On a shuffle's runtime call whose source lane is the caller's lane xor a
/// constant (an i32 attribute, the constant), or the caller's lane plus one
/// (the addend: gpu.shuffle down and up), wherever the shuffle is valid:
/// loops over the lanes read such a lane's value without a gather.
inline constexpr llvm::StringLiteral kShuffleLaneXorAttrName =
    "gpu_runner.shuffle_lane_xor";
inline constexpr llvm::StringLiteral kShuffleLaneShiftAttrName =
    "gpu_runner.shuffle_lane_shift";

/// Marks the nvvm.bar.warp.sync ops that gpu-runner-lower-warp-execute
/// makes, which the host kernel lowering runs as a meeting of a subgroup.
inline constexpr llvm::StringLiteral kWarpSyncAttrName = "gpu_runner.warp_sync";

/// The string that tells the runtime which op made a call:
/// "gpu.memcpy@file.mlir:12:5", or "gpu.memcpy" without a file location;
/// the op named by kRuntimeOpNameAttrName where the op has one.
std::string getRuntimeLocation(mlir::Operation *op);

/// The same string for a call of `name` at `loc`: "mgpuTimerStop@f.mlir:9:5".
std::string getRuntimeLocation(llvm::StringRef name, mlir::Location loc);

/// Returns a pointer to a NUL-terminated private constant holding `text`,
/// shared by every use of the same text in the module.
mlir::Value getConstantString(mlir::OpBuilder &builder, mlir::Location loc,
                              llvm::StringRef text);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_RUNTIME_MGPUCALLS_H
