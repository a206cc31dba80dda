//===- Targets.h - Backends, GPU chips and the tools that compile for them ===//
//
// What choosing a backend's target needs, without MLIR: the runner picks
// the chip and finds the toolkit before it knows whether it has to compile
// at all (a program in the compile cache needs no MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_TARGETS_H
#define GPU_RUNNER_LOWERING_DEVICE_TARGETS_H

#include "lowering/PipelineOptions.h"
#include "wrappers/BackendKind.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// The default chip of CUDA kernels where no device says otherwise.
inline constexpr llvm::StringLiteral kDefaultCudaChip = "sm_90";

/// The PTX version to pair with `chip` ("sm_90" -> "+ptx80"): one that LLVM
/// accepts for the chip and CUDA 13's ptxas and driver take. Empty for a
/// name that is not sm_XX, sm_XXa or sm_XXf, or for a chip older than sm_75,
/// which CUDA 13 does not support.
std::string getPtxFeaturesForChip(llvm::StringRef chip);

/// The default chip of HIP kernels where no device says otherwise.
inline constexpr llvm::StringLiteral kDefaultHipChip = "gfx90a";

/// Whether `chip` names an AMD GPU the ROCDL target knows: gfx followed by
/// its hexadecimal version ("gfx90a", "gfx942", "gfx1100").
bool isAmdgpuChip(llvm::StringRef chip);

/// The subgroup (wavefront) size kernels for `chip` are compiled with: 64
/// on gfx9 chips, 32 on later ones.
unsigned getAmdgpuWaveSize(llvm::StringRef chip);

/// A folder laid out as the ROCDL target expects ROCm (amdgcn/bitcode,
/// llvm/bin/ld.lld): $ROCM_PATH when it is one, else a folder of links to
/// where Debian installs the device libraries (rocm-device-libs) and ld.lld
/// (lld-22), made once per user under the temporary folder. Fails with a
/// sentence that names what is missing.
llvm::Expected<std::string> findRocmPath();

/// The CUDA toolkit whose ptxas compiles kernels: $CUDA_PATH, else
/// /usr/local/cuda, where bin/ptxas is an executable; empty when neither
/// has one.
std::string findCudaToolkit();

/// Chooses the chip kernels are compiled for on the GPU backend `backend`,
/// and the toolkit that compiles them, into `pipeline`: `gpuChip`
/// (--gpu-chip) when it is not empty, else the chip `queryDeviceChip`
/// reports, else, when the program is only compiled, the backend's default
/// chip; a run needs the device, so its error is the one returned then.
/// Fails with a sentence for a chip the backend cannot compile for. Where
/// no ptxas is found, CUDA kernels are compiled to PTX (cudaToolkitPath is
/// empty).
llvm::Error chooseGpuTarget(
    Backend backend, llvm::StringRef gpuChip, bool compileOnly,
    llvm::function_ref<llvm::Expected<std::string>()> queryDeviceChip,
    PipelineOptions &pipeline);

/// The external constants that hold a GPU binary compiled apart from the
/// host code, and its size in bytes (an i64); see kExternalObjectAttrName
/// in DeviceBinaries.h.
std::string getDeviceObjectGlobalName(llvm::StringRef binary);
std::string getDeviceObjectSizeGlobalName(llvm::StringRef binary);
/// Likewise for the LLVM IR (bitcode) the binary was made from, which a
/// driver stand-in runs kernels from; see kExternalKernelIRAttrName.
std::string getKernelIRGlobalName(llvm::StringRef binary);
std::string getKernelIRSizeGlobalName(llvm::StringRef binary);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_TARGETS_H
