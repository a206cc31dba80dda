//===- ModuleToBinaryWithIR.h - gpu.modules to binaries, with their IR ---===//
//
// `gpu-runner-module-to-binary`, the CUDA and HIP pipelines' last kernel
// pass in place of upstream's `gpu-module-to-binary`: each gpu.module
// becomes a gpu.binary as upstream's pass makes it (the same target, options
// and object), and the binary also keeps, in kKernelIRAttrName, the LLVM IR
// the target optimized just before it made the object's PTX or AMDGPU code
// (what the target's optimizedLlvmIRCallback sees), as bitcode. The runtime
// gives that IR to a driver that asks for it (a driver stand-in,
// standin/StandinKernels.h); a real driver loads the same object as before and
// never sees the IR.
//
// On both pipelines, an error of LLVM's while it links and compiles a
// module (what the code generator cannot select, workgroup memory past the
// chip's limit) becomes an error at the gpu.module, with LLVM's message: the
// target's LLVMContext gets a handler of ours, where LLVM's default one prints
// the message and calls exit(1) on the compiling thread.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_MODULETOBINARYWITHIR_H
#define GPU_RUNNER_LOWERING_DEVICE_MODULETOBINARYWITHIR_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace gpu_runner {

/// The gpu.binary attribute (a string) holding its module's final LLVM IR
/// as bitcode.
inline constexpr llvm::StringLiteral kKernelIRAttrName = "gpu_runner.kernel_ir";

struct ModuleToBinaryWithIROptions {
  /// As upstream's pass takes them: the toolkit's path, and the format
  /// (`isa`, `bin`, `fatbin`).
  std::string toolkitPath;
  std::string compilationTarget = "fatbin";
  /// Whether each binary keeps its module's IR (kKernelIRAttrName).
  bool keepKernelIR = true;
};

std::unique_ptr<mlir::Pass>
createModuleToBinaryWithIR(const ModuleToBinaryWithIROptions &options = {});
/// Makes the pass known to gpu-runner-opt by its flag.
void registerModuleToBinaryWithIR();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_MODULETOBINARYWITHIR_H
