//===- DeviceBinaries.h - gpu.binary objects loaded at start-up -----------===//
//
// A gpu.binary that the NVVM or ROCDL target compiled becomes a constant
// holding its object and a global constructor that loads it and looks up
// each kernel the program launches from it, once (DeviceBinaries.cpp). The
// launches then read the kernel's handle from a global of its own
// (runtime/LaunchFuncToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_DEVICEBINARIES_H
#define GPU_RUNNER_LOWERING_DEVICE_DEVICEBINARIES_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::gpu {
class ObjectAttr;
} // namespace mlir::gpu

namespace gpu_runner {

/// Lowers every gpu.binary of `module` into a constant holding its object
/// and a global constructor that loads it and looks up each kernel launched
/// from it, once. Launches of its kernels are then lowered by
/// populateGpuRuntimeToLLVMPatterns. The gpu.binary ops stay, for the
/// launches to find their kernels; the caller erases them.
mlir::LogicalResult lowerDeviceBinaries(mlir::ModuleOp module);

/// A gpu.binary with this unit attribute holds an empty object of the
/// right target and format: its object is compiled apart and provided when
/// the program is loaded, as the external constants getDeviceObjectGlobalName
/// and getDeviceObjectSizeGlobalName name (Targets.h). See the runner's
/// compileProgram.
inline constexpr llvm::StringLiteral kExternalObjectAttrName =
    "gpu_runner.external_object";

/// With kExternalObjectAttrName, on a binary whose object keeps the LLVM IR
/// it was made from (CUDA kernels): that IR is provided when the program is
/// loaded too, as the external constants getKernelIRGlobalName and
/// getKernelIRSizeGlobalName name (Targets.h), of size 0 where there is none.
/// A binary compiled in place keeps its IR in kKernelIRAttrName
/// (ModuleToBinaryWithIR.h). Either way, the loader gives the IR to the
/// module it loads (mgpuModuleAttachIRAt).
inline constexpr llvm::StringLiteral kExternalKernelIRAttrName =
    "gpu_runner.external_kernel_ir";

/// The bytes the driver loads for `object`: the object, with a NUL after
/// assembly (PTX), which the driver reads up to its NUL.
std::string getLoadableDeviceObject(mlir::gpu::ObjectAttr object);

/// The globals that hold the module handle of a gpu.binary, and the
/// function handle of one of its kernels, once loaded.
std::string getDeviceModuleGlobalName(llvm::StringRef binary);
std::string getDeviceFunctionGlobalName(llvm::StringRef binary,
                                        llvm::StringRef kernel);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_DEVICEBINARIES_H
