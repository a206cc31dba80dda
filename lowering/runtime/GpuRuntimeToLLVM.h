//===- GpuRuntimeToLLVM.h - gpu runtime ops to mgpu ABI calls -------------===//

#ifndef GPU_RUNNER_LOWERING_RUNTIME_GPURUNTIMETOLLVM_H
#define GPU_RUNNER_LOWERING_RUNTIME_GPURUNTIMETOLLVM_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace gpu_runner {

/// Adds the patterns that lower gpu.memcpy, gpu.memset, gpu.alloc,
/// gpu.dealloc, gpu.wait, gpu.host_register, gpu.host_unregister,
/// gpu.set_default_device and gpu.launch_func (of kernels compiled by
/// gpu-runner-host-kernels, or held by a gpu.binary that
/// lowerDeviceBinaries lowered, device/DeviceBinaries.h) to runtime calls.
/// The type converter must have the conversions of addGpuTypeConversions.
void populateGpuRuntimeToLLVMPatterns(const mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// The conversions the gpu dialect's types need besides LLVMTypeConverter's
/// own: an async token is a stream (!llvm.ptr); #gpu.address_space values
/// are numbered as the NVVM and ROCDL targets number them. With
/// `hostWorkgroupMemory` (host code, and kernels the host backend runs),
/// workgroup memory is the host's plain memory, address space 0 as the
/// default memory space: LLVM can then check at run time whether a loop's
/// accesses to workgroup memory and to other memory overlap, and vectorize
/// it (it checks no pair of pointers in different address spaces).
void addGpuTypeConversions(mlir::LLVMTypeConverter &converter,
                           bool hostWorkgroupMemory = false);

/// The struct in which a launch passes a kernel's arguments of `types` to
/// the kernel's host entry: one field per argument, of its LLVM type.
mlir::FailureOr<mlir::Type> getPackedArgumentsType(
    const mlir::LLVMTypeConverter &converter, mlir::TypeRange types,
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Adds a lowering of memref.generic_atomic_rmw on floats, which upstream's
/// memref lowering turns into invalid IR.
void populateFloatAtomicsToLLVMPatterns(
    const mlir::LLVMTypeConverter &converter,
    mlir::RewritePatternSet &patterns);

/// Adds a lowering of the host code's cf.assert in place of upstream's,
/// which prints the message on stdout and aborts: a failed one calls
/// mgpuAssertFailedAt, which reports the message as an error at the op, on
/// stderr, and ends the program with status 1. The op is named as
/// getRuntimeLocation names it: the op a runtime check was made for
/// (gpu-runner-verify-host-code), else cf.assert. See AssertToMgpuCall.cpp.
void populateAssertToMgpuCallPatterns(const mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// The ROCm runtime's functions that return a registered host memref at
/// the device's address, which programs call (LocatedHostCalls.cpp).
inline constexpr llvm::StringLiteral kDeviceMemRefFloat =
    "mgpuMemGetDeviceMemRef1dFloat";
inline constexpr llvm::StringLiteral kDeviceMemRefInt32 =
    "mgpuMemGetDeviceMemRef1dInt32";

/// Adds the lowering of the host code's memref.dealloc to
/// mgpuMemrefDeallocAt, of its calls of the mgpuTimer* functions to their
/// `At` forms, so that their run-time errors name the op or call and where
/// it was written, and of its calls of mgpuMemGetDeviceMemRef1d*; upstream's
/// patterns remain for the forms these do not take. See
/// LocatedHostCalls.cpp.
void populateLocatedHostCallPatterns(const mlir::LLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);

/// Why `op`, a gpu op of host code, cannot be lowered by
/// populateGpuRuntimeToLLVMPatterns, in a sentence for the user; empty when
/// it can. The patterns refuse exactly these forms.
std::string getUnsupportedFormReason(mlir::Operation *op,
                                     unsigned indexBitwidth);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_RUNTIME_GPURUNTIMETOLLVM_H
