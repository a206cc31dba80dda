//===- MathToOcml.h - A HIP kernel module's math ops to ocml calls --------===//
//
// `gpu-runner-math-to-ocml`: upstream's math-to-ROCDL patterns on a
// gpu.module (upstream's convert-math-to-rocdl runs on a builtin module,
// host code included), before convert-gpu-to-rocdl. That pass lowers math
// ops to LLVM intrinsics, and the AMDGPU code generator has neither
// instructions nor library calls for many of them (llvm.tanh, llvm.atan2,
// llvm.sinh, ...): "no libcall available". Each op that ROCm's ocml has a
// function for becomes a call to `__ocml_<name>_<type>`, which the ROCDL
// target links from the device libraries' ocml.bc, with the oclc control
// variables for the chip; the others are left to convert-gpu-to-rocdl.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_MATHTOOCML_H
#define GPU_RUNNER_LOWERING_DEVICE_MATHTOOCML_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

namespace gpu_runner {

/// The pass for kernels compiled for `chip` (gfx90a, gfx1100, ...); no chip
/// leaves out the chip-dependent patterns.
std::unique_ptr<mlir::Pass> createMathToOcml(llvm::StringRef chip = "");
/// Makes the pass known to gpu-runner-opt by its flag.
void registerMathToOcml();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_MATHTOOCML_H
